import { describe, expect, it } from 'vitest';
import { duplicateLine, jsonLine, outputRow } from './outputs.js';
import type { TimelineRow } from './row.js';

const base: TimelineRow = { timestamp_utc: '', host: 'h', user: 'u', agent: 'a', session_id: '', project_path: '', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'homes/u/f', source_line: null, ord: 7 };

describe('timeline.jsonl lines', () => {
  it.each([
    ['plain', {}],
    ['quotes, newlines, unicode and a line', { text: 'say "hi"\n\u2028 • \u0000', source_line: 35, tag: 'bad_line' }],
    ['a dated secondary row', { timestamp_utc: '2026-10-01T09:00:00.000Z', sec: true, session_id: 's', project_path: '/p' }],
  ])('%s: the columns in order then tag, nothing internal', (_name, over) => {
    const r = { ...base, ...over } as TimelineRow;
    const line = jsonLine(r);
    expect(line).toBe(JSON.stringify(outputRow(r)) + '\n');
    const o = JSON.parse(line);
    expect(Object.keys(o)).toEqual(['timestamp_utc', 'host', 'user', 'agent', 'session_id', 'project_path', 'git_branch', 'model', 'turn_type', 'tool_name', 'tool_use_id', 'text', 'source_file', 'source_line', 'tag']);
    expect(o.tag).toBe(r.tag ?? '');
  });
});

describe('duplicates.jsonl lines', () => {
  const line = (text: string) => jsonLine({ ...base, text }).slice(0, -1);
  it.each([
    ['short rows, no pair', line('a'), line('b'), undefined, 1],
    ['a kept row longer than 1 Mi characters', line('a'), line(`ü${'x'.repeat(1 << 20)}`), line('c'), 7],
  ])('%s: the text JSON.stringify gives, in %i piece(s)', (_name, dropped, kept, paired, pieces) => {
    const got = duplicateLine(dropped, kept, paired);
    expect(got).toHaveLength(pieces);
    const obj = (l: string | undefined) => (l === undefined ? null : JSON.parse(l));
    expect(got.join('')).toBe(`${JSON.stringify({ dropped: obj(dropped), kept: obj(kept), paired_with: obj(paired) })}\n`);
  });
});
