import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copilotHistoryParser } from './history-parser.js';
import { CORPUS_ROOT, parseText } from './test-helpers/harness.js';

const REL = '.copilot/command-history-state.json';
const CORPUS = `${CORPUS_ROOT}/XEFF09__dotfiles/.copilot/command-history-state.json`;
const parse = (body: string) => parseText(copilotHistoryParser, REL, body);

describe('command-history-state.json parser', () => {
  it('gives one undated user row per entry, source_line the 1-based index, newest first', async () => {
    const { rows } = await parse('{"commandHistory":["and run lint","/model","fix the failing test"]}');
    const empty = { timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', turn_type: 'user' };
    expect(rows).toEqual([
      { ...empty, text: 'and run lint', source_line: 1 },
      { ...empty, text: '/model', source_line: 2 },
      { ...empty, text: 'fix the failing test', source_line: 3 },
    ]);
  });

  it('gives a bad-line row for an entry that is not a string and reads on', async () => {
    const { rows } = await parse('{"commandHistory":["a",{"x":1},"b"]}');
    expect(rows.map((r) => [r.turn_type, r.source_line, r.tag])).toEqual([
      ['user', 1, undefined],
      ['system', 2, 'bad_line'],
      ['user', 3, undefined],
    ]);
    expect(rows[1].text).toBe('parser: unparseable line (expected a string, found an object with keys ["x"]): {"x":1}');
  });

  it('gives one unreadable row for invalid JSON with no entry to keep', async () => {
    const { rows } = await parse('{"commandHistory":');
    expect(rows).toHaveLength(1);
    expect(rows[0].tag).toBe('unreadable');
    expect(rows[0].text).toMatch(/^parser: unreadable file \(expected JSON \{"commandHistory": \[<string>, \.\.\.\]\}, found invalid JSON: /);
  });

  it('a file cut mid-write keeps the complete entries before the cut, leaves out the cut one, and warns with the line', async () => {
    const { rows, warnings } = await parse('{"commandHistory":[\n"and run lint",\n"/model",\n"fix the fail');
    expect(rows.map((r) => [r.turn_type, r.text, r.source_line])).toEqual([
      ['user', 'and run lint', 1],
      ['user', '/model', 2],
    ]);
    expect(warnings).toEqual([{ message: expect.stringMatching(/found invalid JSON \(UnexpectedEndOfString\) at line 4: the complete entries before it were read$/), line: 4 }]);
  });

  it('gives one unreadable row for the wrong shape', async () => {
    expect((await parse('["a"]')).rows[0].text).toContain('found an array');
    expect((await parse('{"history":[]}')).rows[0].text).toContain('found commandHistory as absent');
    expect((await parse('{"commandHistory":"a"}')).rows[0].text).toContain('found commandHistory as a string');
    expect((await parse('')).rows[0].text).toContain('found an empty file');
  });

  it('refuses a file past 16 MiB with one unreadable row instead of reading it whole', async () => {
    const body = `{"commandHistory":["${'x'.repeat(16 * 1024 * 1024)}"]}`;
    const { rows } = await parse(body);
    expect(rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: 'parser: unreadable file (file larger than 16777216 bytes; not read whole)' })]);
  });

  it('reads a file with a UTF-8 BOM and CRLF line ends', async () => {
    const { rows } = await parse('\uFEFF{\r\n  "commandHistory": ["héllo"]\r\n}\r\n');
    expect(rows.map((r) => r.text)).toEqual(['héllo']);
  });

  it.skipIf(!existsSync(CORPUS))('reads the real history (XEFF09__dotfiles): 14 entries in file order', async () => {
    const body = readFileSync(CORPUS, 'utf8');
    const { rows } = await parse(body);
    const expected = (JSON.parse(body) as { commandHistory: string[] }).commandHistory;
    expect(rows.map((r) => r.text)).toEqual(expected);
    expect(rows.map((r) => r.source_line)).toEqual(expected.map((_, i) => i + 1));
    expect(rows.every((r) => r.turn_type === 'user' && r.timestamp_utc === '')).toBe(true);
    expect(rows).toHaveLength(14);
  });
});
