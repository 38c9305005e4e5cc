import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitUserText } from './text.js';
import { parseFile, scratchHome } from './test-helpers/build.js';

const { dir, done } = scratchHome('transcripts');
afterAll(done);
let n = 0;

/** Write files into a fresh home; the first is the one parsed. */
async function parse(files: Record<string, string | Buffer>, includeThinking = true) {
  const home = join(dir, `h${++n}`);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), body);
  }
  return parseFile(home, Object.keys(files)[0], { includeThinking });
}

const TR = '.cursor/projects/srv-proj/agent-transcripts';
const view = (rows: { turn_type: string; text: string; tool_name: string }[]) => rows.map((r) => `${r.turn_type}${r.tool_name ? `(${r.tool_name})` : ''}: ${r.text}`);

describe('user text', () => {
  it('takes the query out exactly as the bubble holds it, a leading <timestamp> apart, wrappers as context', () => {
    expect(splitUserText('<user_query>\nfix it\n</user_query>')).toEqual({ prompt: 'fix it', timestamp: '', context: '' });
    expect(splitUserText('<user_query>\nline 1\n\nline 3\n</user_query>')).toEqual({ prompt: 'line 1\n\nline 3', timestamp: '', context: '' });
    expect(splitUserText('<timestamp>2026-10-01T09:00:00Z</timestamp>\n<user_query>\nq\n</user_query>')).toEqual({ prompt: 'q', timestamp: '2026-10-01T09:00:00Z', context: '' });
    expect(splitUserText('<attached_files>\na\n</attached_files>\n<user_query>\nq\n</user_query>')).toEqual({ prompt: 'q', timestamp: '', context: '<attached_files>\na\n</attached_files>' });
    expect(splitUserText('<user_info>OS</user_info>')).toEqual({ prompt: '', timestamp: '', context: '<user_info>OS</user_info>' });
    expect(splitUserText('typed < 3 words')).toEqual({ prompt: 'typed < 3 words', timestamp: '', context: '' });
  });
});

describe('.jsonl transcripts', () => {
  it('text, thinking, tool_use and tool_result blocks; turn_ended gives nothing; unknown lines and parts are counted', async () => {
    const { rows, ctx } = await parse({
      [`${TR}/s1/s1.jsonl`]: [
        '{"role":"user","message":{"content":[{"type":"text","text":"<timestamp>2026-10-01T09:00:00.500Z</timestamp>\\n<user_query>\\ngo\\n</user_query>"}]}}',
        '{"role":"assistant","message":{"content":[{"type":"thinking","thinking":"plan"},{"type":"text","text":"ok"},{"type":"tool_use","name":"Shell","input":{"command":"make","working_directory":"/w"}},{"type":"tool_use","name":"Grep","input":{"pattern":"x","path":"/w"}}]}}',
        '{"role":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"found"}]}}',
        '{"type":"turn_ended","status":"success"}',
        '{"type":"new_control"}',
        '{"role":"assistant","message":{"content":[{"type":"hologram"}]}}',
        '',
      ].join('\n'),
    });
    expect(view(rows)).toEqual(['user: go', 'thinking: plan', 'assistant: ok', 'tool_use(Shell): make', 'tool_use(Grep): {"path":"/w","pattern":"x"}', 'tool_result: found']);
    expect(rows[0].timestamp_utc).toBe('2026-10-01T09:00:00.500Z');
    expect(rows.slice(1).every((r) => r.timestamp_utc === '' && r.session_id === 's1')).toBe(true);
    expect(ctx.unknowns).toEqual([
      { kind: 'transcript line new_control', line: 5 },
      { kind: 'transcript part hologram', line: 6 },
    ]);
  });

  it('a subagent file is its own session naming its parent; the CLI flat file is the agent id', async () => {
    const sub = await parse({ [`${TR}/p1/subagents/task-9.jsonl`]: '{"role":"assistant","message":{"content":[{"type":"text","text":"found it"}]}}\n' });
    expect(sub.rows.map((r) => [r.session_id, r.text, r.tag ?? ''])).toEqual([
      ['task-9', 'subagent of p1', 'subagent'],
      ['task-9', 'found it', ''],
    ]);
    const flat = await parse({ [`${TR}/agent-7.jsonl`]: '{"role":"assistant","message":{"content":"a string content"}}\n' });
    expect(flat.rows.map((r) => [r.session_id, r.text])).toEqual([['agent-7', 'a string content']]);
  });

  it('hostile lines: a cut line, garbage, NUL bytes, wrong types, an over-long line; each a row that says so, reading goes on', async () => {
    const big = `{"role":"assistant","message":{"content":[{"type":"text","text":"${'x'.repeat(300_000)}"}]}}`;
    const { rows, ctx } = await parse({
      [`${TR}/h/h.jsonl`]: ['garbage here', '\u0000\u0000\u0000', '{"role":5,"message":{"content":7}}', '[1,2]', big, '{"role":"assistant","message":{"content":[{"type":"text","text":"after"}]}}', '{"role":"user","message":{"content":[{"type":"text","text":"cu'].join('\n'),
    });
    expect(rows.map((r) => [r.source_line, r.tag ?? '', r.text.length > 1000 ? `${r.text.slice(0, 10)}…${r.text.length}` : r.text])).toEqual([
      [1, 'bad_line', 'parser: unparseable line (invalid JSON): garbage here'],
      [2, 'bad_line', 'parser: unparseable line (only NUL bytes (3)): '],
      [4, 'bad_line', 'parser: unparseable line (not a JSON object: an array): [1,2]'],
      [5, '', 'xxxxxxxxxx…300000'],
      [6, '', 'after'],
      [7, 'bad_line', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"role":"user","message":{"content":[{"type":"text","text":"cu'],
    ]);
    // A role that is not a string is a kind this parser does not know: counted, with its line.
    expect(ctx.unknowns).toEqual([{ kind: 'transcript role 5', line: 3 }]);
  });

  it('the project comes from the folder .workspace-trusted when its slug matches, never from the slug alone', async () => {
    const trusted = JSON.stringify({ trustedAt: '2026-10-01T08:00:00Z', workspacePath: '/srv/proj' });
    const a = await parse({ [`${TR}/s/s.jsonl`]: '{"role":"user","message":{"content":"<user_query>\\nq\\n</user_query>"}}\n', '.cursor/projects/srv-proj/.workspace-trusted': trusted });
    expect(a.rows[0].project_path).toBe('/srv/proj');
    expect(a.ctx.facts).toEqual([{ session_id: 's', key: 'cwd', value: '/srv/proj', priority: 6 }]);
    const b = await parse({ '.cursor/projects/other/agent-transcripts/s.txt': 'user:\n<user_query>\nq\n</user_query>\n', '.cursor/projects/other/.workspace-trusted': trusted });
    expect(b.rows[0].project_path).toBe('');
    expect(b.ctx.facts).toEqual([]);
  });
});

describe('.txt transcripts', () => {
  it('blocks, markers and multi-line arguments; a blank line ends thinking; a query may hold a blank line and "assistant:"', async () => {
    const { rows } = await parse({
      [`${TR}/t.txt`]: [
        'user:',
        '<user_query>',
        'first line',
        '',
        'assistant:',
        'still the query',
        '</user_query>',
        '',
        'A:',
        '[Thinking] look first',
        'and then act',
        '',
        'Plan ready.',
        '[Tool call] Shell',
        '  command: npm test',
        '  description: run',
        '[Tool call] StrReplace',
        '  path: /w/a.ts',
        '  old_string: a',
        '',
        'b',
        '  new_string: c',
        '',
        '[Tool result] Shell',
        'exit 0',
        '',
        '[Tool result] StrReplace',
        '',
        'assistant:',
        'Done.',
      ].join('\n'),
    });
    expect(view(rows)).toEqual([
      'user: first line\n\nassistant:\nstill the query',
      'thinking: look first\nand then act',
      'assistant: Plan ready.',
      'tool_use(Shell): npm test',
      'tool_use(StrReplace): {"new_string":"c","old_string":"a\\n\\nb","path":"/w/a.ts"}',
      'tool_result(Shell): exit 0',
      'assistant: Done.',
    ]);
    expect(rows.map((r) => r.source_line)).toEqual([1, 10, 13, 14, 17, 24, 30]);
  });

  it('without --include-thinking no thinking row; text before the first block is one bad line', async () => {
    const { rows } = await parse({ [`${TR}/u.txt`]: 'stray preface\nmore\n\nassistant:\n[Thinking] hidden\n\nshown\n' }, false);
    expect(view(rows)).toEqual(['assistant: shown', 'system: parser: unparseable line (text before the first user: or assistant: block): stray preface']);
  });
});

describe('.json transcripts', () => {
  it('role/text elements, toolCalls, toolResult; an element that is not an object is a bad line; a cut document says so', async () => {
    const { rows } = await parse({ [`${TR}/j.json`]: '[{"role":"user","text":"<user_query>\\nq\\n</user_query>"},{"role":"assistant","text":"a","toolCalls":[{"name":"Read","args":{"path":"/x"}}]},{"role":"tool","toolResult":{"ok":true}},"str",{"role":"assistant","text":"cut' });
    expect(rows.map((r) => [r.turn_type, r.text, r.tag ?? ''])).toEqual([
      ['user', 'q', ''],
      ['assistant', 'a', ''],
      ['tool_use', '{"path":"/x"}', ''],
      ['tool_result', '{"ok":true}', ''],
      ['system', 'parser: unparseable line (not a JSON object): "str"', 'bad_line'],
      ['system', expect.stringMatching(/^parser: unparseable line \(/), 'bad_line'],
    ]);
  });
});
