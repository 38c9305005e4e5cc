import { asArray, asString, isObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonFile } from './json-file.js';
import { HISTORY_JSON_RE, HISTORY_RE } from './paths.js';

/**
 * How far a history entry may be from the rollout line it repeats: `ts` is written at submission
 * in whole seconds, before the turn's items; the spec's hour matches the other agents'.
 */
export const HISTORY_TOLERANCE_SECONDS = 3600;

async function* parseHistoryJsonl(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    const v = l.value;
    const text = asString(v.text);
    if (text === undefined) {
      ctx.warn(`line ${l.line}: expected a history entry {session_id, ts, text}, found no text`, l.line);
      continue;
    }
    // The id key was session_id, then conversation_id in some builds, then session_id again.
    const session = (asString(v.session_id) ?? asString(v.conversation_id) ?? '').toLowerCase();
    yield makeRow('user', text, { timestamp_utc: toUtc(v.ts), session_id: session, source_line: l.line, tag: 'history' });
  }
}

async function* parseHistoryJson(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonFile(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const entries = asArray(r.value);
  if (!entries) {
    yield unreadableRow('expected a JSON array of {command, timestamp} (TypeScript CLI history.json), found another JSON value', { timestamp_utc: a.mtime });
    return;
  }
  for (const [i, e] of entries.entries()) {
    const command = isObject(e) ? asString(e.command) : undefined;
    if (command === undefined) {
      ctx.warn(`entry ${i + 1}: expected {command, timestamp}, found no command`, i + 1);
      continue;
    }
    yield makeRow('user', command, { timestamp_utc: toUtc(isObject(e) ? e.timestamp : undefined), source_line: i + 1, tag: 'history' });
  }
}

/** `history.jsonl` (Rust) and `history.json` (TypeScript CLI): every prompt submitted, any session (secondary). */
export const historyParser: Parser = {
  agent: 'codex-cli',
  name: 'history',
  patterns: ['<codex>/history.jsonl', '<codex>/history.json'],
  wants: (rel) => HISTORY_RE.test(rel) || HISTORY_JSON_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => HISTORY_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: (a, ctx) => (HISTORY_JSON_RE.test(a.rel) ? parseHistoryJson(a, ctx) : parseHistoryJsonl(a, ctx)),
};
