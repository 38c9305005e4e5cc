import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { ampPlugin } from './index.js';
import { uriPath } from './thread-parser.js';

// fixtures/homes/amp-spec's two thread copies (the peer-described shape of shared/agents/amp.md;
// Amp is closed source), read row by row against the spec's parser plan; then variants and damage.

const [threads] = ampPlugin.parsers;
const homes = tempHomes('amp');
const DIR = '.local/share/amp/threads';
const T1 = 'T-019ca26f-0000-7000-8000-000000000001';
const T2 = 'T-019ca26f-0000-7000-8000-000000000002';
const line = (r: Row) => [r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.text, r.tag ?? ''];

describe('amp threads (the fixture home)', () => {
  it('a thread: its start and name, the prompt, the model, a Bash call and its result', async () => {
    const home = copyHome('amp-spec', homes.make());
    const { rows, ctx } = await run(threads, home, `${DIR}/${T1}.json`);
    expect(rows.map(line)).toEqual([
      [null, '2026-10-03T09:00:00.000Z', 'system', '', '', '', 'thread: Speed up the importer trees=file:///home/dev/src/amp-app v=7', 'session_start'],
      [null, '2026-10-03T09:00:00.000Z', 'system', '', '', '', 'session name: Speed up the importer', 'session_name'],
      [1, '2026-10-03T09:00:00.500Z', 'user', '', '', '', 'why is the importer slow?', ''],
      [2, '2026-10-03T09:00:03.000Z', 'system', '', '', 'claude-sonnet-4', 'model: claude-sonnet-4', 'model'],
      [2, '2026-10-03T09:00:03.000Z', 'assistant', '', '', 'claude-sonnet-4', 'Let me look.', ''],
      [2, '2026-10-03T09:00:03.000Z', 'tool_use', 'Bash', 'toolu_01', 'claude-sonnet-4', 'time python import.py', ''],
      [3, '2026-10-03T09:00:03.000Z', 'tool_result', 'Bash', 'toolu_01', '', 'real 0m41s', ''],
    ]);
    expect(rows.every((r) => r.session_id === T1 && r.project_path === '/home/dev/src/amp-app')).toBe(true);
    expect(ctx.facts).toEqual([{ session_id: T1, key: 'cwd', value: '/home/dev/src/amp-app', priority: 1 }, { session_id: T1, key: 'name', value: 'Speed up the importer', priority: 1 }]);
  });

  it('a thread with thinking, a model change, a failed edit, a rejected call, an exit code and a canonical result, in block order', async () => {
    const home = copyHome('amp-spec', homes.make());
    const { rows, ctx } = await run(threads, home, `${DIR}/${T2}.json`);
    const S = 'claude-sonnet-4';
    const O = 'claude-opus-4';
    expect(rows.slice(2).map(line)).toEqual([
      [1, '2026-10-04T09:00:00.500Z', 'user', '', '', '', 'rename --fast to --quick\n[image]', ''],
      [2, '2026-10-04T09:00:02.000Z', 'system', '', '', S, `model: ${S}`, 'model'],
      [2, '2026-10-04T09:00:02.000Z', 'thinking', '', '', S, 'Find the flag first.', ''],
      [2, '2026-10-04T09:00:02.000Z', 'assistant', '', '', S, 'Searching for the flag.', ''],
      [2, '2026-10-04T09:00:02.000Z', 'tool_use', 'shell_command', 'toolu_11', S, 'grep -rn -- --fast . (in /home/dev/src/amp-app)', ''],
      [3, '2026-10-04T09:00:02.000Z', 'tool_result', 'shell_command', 'toolu_11', '', 'cli.py:12: --fast\n[exit 1]', ''],
      [4, '2026-10-04T09:00:05.000Z', 'system', '', '', O, `model: ${S} -> ${O}`, 'model'],
      [4, '2026-10-04T09:00:05.000Z', 'tool_use', 'edit_file', 'toolu_12', O, 'cli.py', ''],
      [4, '2026-10-04T09:00:05.000Z', 'tool_use', 'Bash', 'toolu_13', O, 'git push --force', ''],
      [5, '2026-10-04T09:00:05.000Z', 'tool_result', 'edit_file', 'toolu_12', '', '[error] old_str not found', ''],
      [5, '2026-10-04T09:00:05.000Z', 'system', 'Bash', 'toolu_13', '', 'permission decision: rejected Bash', 'permission_decision'],
      [6, '2026-10-04T09:00:05.000Z', 'tool_use', 'Read', 'toolu_14', O, 'cli.py', ''],
      [7, '2026-10-04T09:00:09.000Z', 'tool_result', 'Read', 'toolu_14', '', 'import argparse\n', ''],
    ]);
    expect(ctx.unknowns).toEqual([]);
    expect((await run(threads, home, `${DIR}/${T2}.json`, { includeThinking: false })).rows.map((r) => r.turn_type)).not.toContain('thinking');
  });
});

describe('amp threads: variants and damage', () => {
  it('file URIs as paths (Windows drive, escapes), anything else as written', () => {
    expect(uriPath('file:///home/dev/my%20app')).toBe('/home/dev/my app');
    expect(uriPath('file:///C:/Users/dev/app')).toBe('C:/Users/dev/app');
    expect(uriPath('file://localhost/srv/x')).toBe('/srv/x');
    expect(uriPath('file:///bad%zz')).toBe('/bad%zz');
    expect(uriPath('amp-app')).toBe('amp-app');
  });

  it('no times: the file time; an id that is not the file name warned; new block types, roles and statuses counted and kept', async () => {
    const home = homes.make();
    const rel = `${DIR}/T-x.json`;
    writeFiles(home, { [rel]: JSON.stringify({ id: 'T-y', title: '', env: { initial: { trees: [{ displayName: 'proj' }] } }, messages: [{ role: 'user', content: 'plain string prompt' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'mcp__x', input: { q: 1 } }, { type: 'server_tool', name: 'web' }] }, { role: 'user', content: [{ type: 'tool_result', toolUseID: 'a', run: { status: 'in-progress' } }, { type: 'tool_result', toolUseID: 'b', run: { status: 'queued', result: 'later' } }] }, { role: 'system', content: [{ type: 'text', text: 'be brief' }] }] }) });
    const { rows, ctx } = await run(threads, home, rel);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.tool_name, r.text, r.tag ?? '', r.project_path])).toEqual([
      [null, 'system', '', 'thread:  trees=proj v=null', 'session_start', 'proj'],
      [1, 'user', '', 'plain string prompt', 'time_file', 'proj'],
      [2, 'tool_use', 'mcp__x', '{"q":1}', 'time_file', 'proj'],
      [2, 'system', '', 'content: {"name":"web","type":"server_tool"}', 'time_file', 'proj'],
      [3, 'system', 'mcp__x', 'tool still running when the thread was saved: mcp__x', 'time_file', 'proj'],
      [3, 'tool_result', '', 'later', 'time_file', 'proj'],
      [4, 'system', '', 'system message: be brief', 'time_file', 'proj'],
    ]);
    expect(rows.every((r) => r.session_id === 'T-y')).toBe(true);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['content server_tool', 'tool result status queued', 'role system']);
    expect(ctx.warnings.map((w) => w.message)).toEqual([`${rel}: the thread's id T-y is not its file name`]);
  });

  it('a thread past a config file\'s 64 MiB (pasted screenshots) is still read', async () => {
    const home = homes.make();
    const image = 'A'.repeat(65 * 1024 * 1024);
    writeFiles(home, { [`${DIR}/T-big.json`]: JSON.stringify({ id: 'T-big', created: 1791018000000, messages: [{ role: 'user', content: [{ type: 'text', text: 'see the screenshot' }, { type: 'image', source: { type: 'base64', data: image } }] }] }) });
    const { rows } = await run(threads, home, `${DIR}/T-big.json`);
    expect(rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['system', 'thread:  trees=- v=null'],
      ['user', 'see the screenshot\n[image]'],
    ]);
  });

  it('a result nested 100,000 lists deep prints as JSON, without recursion', async () => {
    const home = homes.make();
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    writeFiles(home, { [`${DIR}/T-deep.json`]: `{"id":"T-deep","messages":[{"role":"user","content":[{"type":"tool_result","toolUseID":"a","run":{"status":"done","result":${deep}}}]}]}` });
    const { rows } = await run(threads, home, `${DIR}/T-deep.json`);
    expect(rows.map((r) => [r.turn_type, r.text.length > 1000, r.text.slice(0, 3)])).toEqual([
      ['system', false, 'thr'],
      ['tool_result', true, '[[['],
    ]);
  });

  it('a file cut short is one unreadable row; only thread files are wanted', async () => {
    const home = homes.make();
    writeFiles(home, { [`${DIR}/T-cut.json`]: '{"id":"T-cut","messages":[{"role":"user","con' });
    const { rows } = await run(threads, home, `${DIR}/T-cut.json`);
    expect(rows.map((r) => [r.turn_type, r.tag, r.text.slice(0, 48)])).toEqual([['system', 'unreadable', 'parser: unreadable file (expected JSON, found in']]);
    expect(threads.wants(`${DIR}/${T1}.json`)).toBe(true);
    for (const rel of ['.local/share/amp/secrets.json', '.local/share/amp/threads/index.json', '.config/amp/settings.json']) expect(threads.wants(rel), rel).toBe(false);
  });
});
