export type { AgentPlugin, Artifact, FactKey, ParseContext, ParseOptions, Parser, Row, RowTag, SessionFact, TurnType } from './sdk/types.js';
export { badLineRow, makeRow, unreadableRow } from './sdk/row.js';
export { compactJson } from './sdk/compact-json.js';
export { normalizeTimestamp, toUtc, type TimestampResult } from './sdk/timestamp.js';
export { asArray, asBool, asJsonish, asNumber, asObject, asString, isObject, pick, pickString, type JsonObject } from './sdk/decode.js';
export { readJsonLines, readLines, type JsonLine, type LineReaderOptions, type RawLine } from './sdk/line-reader.js';
export { columnNames, openCollectedSqlite, SqliteOpenError, tableNames, type SqliteDatabase } from './sdk/sqlite.js';
export { readSmall, utf8Text } from './sdk/small-file.js';
export { builtInPlugins } from './registry.js';
