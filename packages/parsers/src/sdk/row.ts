import type { Row, TurnType } from './types.js';

/** A row with every column present; unspecified columns are empty. */
export function makeRow(turn_type: TurnType, text: string, fields: Partial<Row> = {}): Row {
  return {
    timestamp_utc: '',
    session_id: '',
    project_path: '',
    git_branch: '',
    model: '',
    tool_name: '',
    tool_use_id: '',
    source_line: null,
    ...fields,
    turn_type,
    text,
  };
}

/** The seed's bad-line row: `parser: unparseable line (<reason>): <line>`, the line in full. */
export function badLineRow(reason: string, line: string, lineNo: number | null, fields: Partial<Row> = {}): Row {
  return makeRow('system', `parser: unparseable line (${reason}): ${line}`, { ...fields, source_line: lineNo, tag: 'bad_line' });
}

/** One system row saying why a whole artifact could not be read. */
export function unreadableRow(reason: string, fields: Partial<Row> = {}): Row {
  return makeRow('system', `parser: unreadable file (${reason})`, { ...fields, tag: 'unreadable' });
}
