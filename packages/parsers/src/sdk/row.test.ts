import { describe, expect, it } from 'vitest';
import { badLineRow, makeRow, unreadableRow } from './row.js';

describe('rows', () => {
  it('makeRow fills every column, empty unless given', () => {
    expect(makeRow('user', 'fix the failing test', { session_id: 's1', source_line: 4 })).toEqual({
      timestamp_utc: '',
      session_id: 's1',
      project_path: '',
      git_branch: '',
      model: '',
      turn_type: 'user',
      tool_name: '',
      tool_use_id: '',
      text: 'fix the failing test',
      source_line: 4,
    });
  });

  it('makeRow lets no field override the turn type or text it was given', () => {
    const r = makeRow('system', 'x', { turn_type: 'user', text: 'y' } as never);
    expect([r.turn_type, r.text]).toEqual(['system', 'x']);
  });

  it("badLineRow is the seed's bad-line row, the line in full", () => {
    const line = '{"type":"user.message","data":{"content":"and run';
    expect(badLineRow('cut line, no newline at end of file: invalid JSON', line, 35, { session_id: 's1' })).toMatchObject({
      turn_type: 'system',
      text: `parser: unparseable line (cut line, no newline at end of file: invalid JSON): ${line}`,
      source_line: 35,
      session_id: 's1',
      tag: 'bad_line',
    });
  });

  it('unreadableRow says why, for the whole file', () => {
    expect(unreadableRow('not a SQLite database')).toMatchObject({ turn_type: 'system', text: 'parser: unreadable file (not a SQLite database)', source_line: null, tag: 'unreadable' });
  });
});

describe('rows keep the key order of the spread they replaced', () => {
  it('makeRow, badLineRow and unreadableRow list their keys as before', () => {
    const fields = { session_id: 's', tag: 'x', extra: 1 } as never;
    const spreadRow = (turn: string, text: string, f: object) => ({ timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', source_line: null, ...f, turn_type: turn, text });
    expect(Object.keys(makeRow('user', 't', fields))).toEqual(Object.keys(spreadRow('user', 't', fields)));
    expect(Object.keys(badLineRow('r', 'l', 3, { session_id: 's' }))).toEqual(Object.keys(spreadRow('system', 'x', { session_id: 's', source_line: 3, tag: 'bad_line' })));
    expect(Object.keys(unreadableRow('r', { model: 'm' }))).toEqual(Object.keys(spreadRow('system', 'x', { model: 'm', tag: 'unreadable' })));
  });
});
