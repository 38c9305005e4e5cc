import type { Row, TurnType } from './types.js';

// Object.assign, not spread: on Node 20 an object spread costs microseconds (a hundred times a
// literal), and every row of every parser goes through here. Same keys, same order.

/** A row with every column present; unspecified columns are empty. */
export function makeRow(turn_type: TurnType, text: string, fields: Partial<Row> = {}): Row {
  const row = { timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', source_line: null } as unknown as Row;
  Object.assign(row, fields);
  row.turn_type = turn_type;
  row.text = text;
  return row;
}

/** The seed's bad-line row: `parser: unparseable line (<reason>): <line>`, the line in full. */
export function badLineRow(reason: string, line: string, lineNo: number | null, fields: Partial<Row> = {}): Row {
  const f: Partial<Row> = Object.assign({}, fields);
  f.source_line = lineNo;
  f.tag = 'bad_line';
  return makeRow('system', `parser: unparseable line (${reason}): ${line}`, f);
}

/** One system row saying why a whole artifact could not be read. */
export function unreadableRow(reason: string, fields: Partial<Row> = {}): Row {
  const f: Partial<Row> = Object.assign({}, fields);
  f.tag = 'unreadable';
  return makeRow('system', `parser: unreadable file (${reason})`, f);
}

/** Tags the analyzer acts on (permissions, sessions, models, MCP) stay on a recovered row; any other kind of row is tagged `recovered`. */
const KEEP_TAG = /^(?:permission_|session_|model$|mcp_)/;

/** A row of something the store no longer holds (a deleted record given again): tagged `recovered` unless its tag is one the analyzer acts on. */
export function recovered(r: Row): Row {
  return r.tag !== undefined && KEEP_TAG.test(r.tag) ? r : { ...r, tag: 'recovered' };
}
