import { describe, expect, it } from 'vitest';
import { jsonLine, outputRow } from './outputs.js';
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
