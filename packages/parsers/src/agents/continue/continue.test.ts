import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { continuePlugin } from './index.js';
import { uriPath } from './paths.js';

// Continue's parsers over fixtures/homes/continue-spec (laid out from Continue's source: no real
// Continue file was available), and hostile session and dev data files.

const HOME = `${HOMES}continue-spec`;
const by = Object.fromEntries(continuePlugin.parsers.map((p) => [p.name, p]));
const S1 = '3f0c1a52-7d4e-4b8a-9c61-2e5f8a7b9d10';
const S2 = '8b2d4e6f-1a3c-4e5b-8d7f-9a0b1c2d3e4f';
const S3 = 'c0ffee00-dead-4bee-8f00-000000000003';
const rowsOf = (rows: Row[]) => rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.tag ?? '', r.tool_name, r.tool_use_id, r.text]);
const homes = tempHomes('continue');

describe('continue: paths', () => {
  it('claims sessions, the index, every dev data schema folder, configs; not the codebase index nor .env', () => {
    const cases: [string, string | undefined][] = [
      [`.continue/sessions/${S1}.json`, 'session'],
      ['.continue/sessions/sessions.json', 'session-index'],
      ['.continue/dev_data/0.2.0/toolUsage.jsonl', 'dev-data'],
      ['.continue/dev_data/0.1.0/chatInteraction.jsonl', 'dev-data'],
      ['.continue/dev_data/tokens_generated.jsonl', 'dev-data'],
      ['.continue/config.yaml', 'config'],
      ['.continue/config.json', 'config'],
      ['.continue/mcpServers/db.yaml', 'config'],
      ['.continuerc.json', 'config'],
      ['.continue/index/index.sqlite', undefined],
      ['.continue/.env', undefined],
      ['.continue/dev_data/devdata.sqlite', undefined],
    ];
    for (const [rel, name] of cases) expect(continuePlugin.parsers.find((p) => p.wants(rel))?.name, rel).toBe(name);
    expect(by['session-index'].secondary('.continue/sessions/sessions.json')).toBe(true);
    expect(by['dev-data'].secondary('.continue/dev_data/0.2.0/toolUsage.jsonl')).toBe(true);
    expect(by.session.secondary(`.continue/sessions/${S1}.json`)).toBe(false);
  });

  it('workspaceDirectory URIs become paths: Linux, Windows drive (percent-encoded), a remote host kept as the URI', () => {
    expect(uriPath('file:///home/dev/shop')).toBe('/home/dev/shop');
    expect(uriPath('file:///c%3A/Users/dev/api')).toBe('c:\\Users\\dev\\api');
    expect(uriPath('file://server/share/x')).toBe('file://server/share/x');
    expect(uriPath('/plain/path')).toBe('/plain/path');
    expect(uriPath('file:///bad%E0%A4%A')).toBe('file:///bad%E0%A4%A');
  });
});

describe('continue: the agent-mode session, joined with the dev data', () => {
  it('row by row: prompt timed by its exchange, thinking with no time of its own, reasoning at startAt, tool calls and decisions at their toolUsage time', async () => {
    const { rows, ctx } = await run(by.session, HOME, `.continue/sessions/${S1}.json`);
    expect(rowsOf(rows)).toEqual([
      [null, '2026-01-05T12:00:00.000Z', 'system', 'session_metadata', '', '', 'session: Fix the flaky date test'],
      [null, '2026-01-05T12:00:00.000Z', 'system', 'permission_mode', '', '', 'mode: agent'],
      [1, '2026-01-05T12:00:04.000Z', 'user', 'time_exchange', '', '', 'Why does test/date.test.ts fail on Mondays?\n[context: date.test.ts]'],
      [2, '2026-01-05T12:00:00.000Z', 'thinking', 'time_session', '', '', 'The test probably depends on the local week start.'],
      [3, '2026-01-05T12:00:02.000Z', 'thinking', '', '', '', 'Running the test shows the exact assertion.'],
      [3, '2026-01-05T12:00:04.000Z', 'assistant', '', '', '', 'Let me run the test to see the failure.'],
      [3, '2026-01-05T12:00:10.000Z', 'tool_use', '', 'run_terminal_command', 'call_run_1', 'npm test -- date'],
      [3, '2026-01-05T12:00:10.000Z', 'system', 'permission_decision', 'run_terminal_command', 'call_run_1', 'approved: run_terminal_command'],
      [4, '2026-01-05T12:00:10.000Z', 'tool_result', '', 'run_terminal_command', 'call_run_1', 'FAIL test/date.test.ts\n  expected Monday'],
      [5, '2026-01-05T12:00:20.000Z', 'assistant', '', '', '', 'I will rewrite the helper.'],
      [5, '2026-01-05T12:00:30.000Z', 'tool_use', '', 'edit_existing_file', 'call_edit_2', '{"changes":"use getUTCDay()","filepath":"src/date.ts"}'],
      [5, '2026-01-05T12:00:30.000Z', 'system', 'permission_decision', 'edit_existing_file', 'call_edit_2', 'denied: edit_existing_file'],
      [6, '2026-01-05T12:01:00.000Z', 'user', 'time_exchange', '', '', 'Do not touch src/, only explain.'],
      [7, '2026-01-05T12:01:00.000Z', 'assistant', '', '', '', 'The helper uses getDay(), which follows the local time zone.'],
    ]);
    expect(rows.every((r) => r.session_id === S1)).toBe(true);
    expect(rows.filter((r) => r.turn_type === 'assistant').map((r) => r.model)).toEqual(['Claude Sonnet 4.5', 'Claude Sonnet 4.5', 'Claude Sonnet 4.5']);
    expect(ctx.facts.map((f) => [f.key, f.value])).toEqual([
      ['cwd', '/home/dev/shop'],
      ['name', 'Fix the flaky date test'],
    ]);
  });

  it('the chat-mode session: an image part said, the Windows workspace as a path, an unknown role reported and kept', async () => {
    const { rows, ctx } = await run(by.session, HOME, `.continue/sessions/${S2}.json`);
    expect(rowsOf(rows).slice(2)).toEqual([
      [1, '2026-01-06T12:00:05.000Z', 'user', 'time_exchange', '', '', 'What does the build script do?\n[image]'],
      [2, '2026-01-06T12:00:05.000Z', 'assistant', '', '', '', 'It bundles src/ with esbuild.'],
      [3, '2026-01-06T12:00:00.000Z', 'system', 'unknown', '', '', 'message mystery: a role no build writes'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'message role mystery', line: 3 }]);
    expect(ctx.facts.find((f) => f.key === 'cwd')?.value).toBe('c:\\Users\\dev\\api');
  });

  it('without dev data or index, rows take the file time and say so', async () => {
    const home = homes.make();
    writeFiles(home, { [`.continue/sessions/${S2}.json`]: JSON.stringify({ sessionId: S2, title: 't', history: [{ message: { role: 'user', content: 'hello' } }, { message: { role: 'assistant', content: 'hi' } }] }) });
    const { rows } = await run(by.session, home, `.continue/sessions/${S2}.json`);
    expect(rows.filter((r) => r.source_line !== null).map((r) => [r.turn_type, r.tag])).toEqual([
      ['user', 'time_file'],
      ['assistant', 'time_file'],
    ]);
  });
});

describe('continue: index, dev data, config', () => {
  it('sessions.json: one session row per entry at its creation time, the workspace as cwd', async () => {
    const { rows, ctx } = await run(by['session-index'], HOME, '.continue/sessions/sessions.json');
    expect(rowsOf(rows)).toEqual([
      [1, '2026-01-05T12:00:00.000Z', 'system', 'session_metadata', '', '', 'session: Fix the flaky date test'],
      [2, '2026-01-06T12:00:00.000Z', 'system', 'session_metadata', '', '', 'session: Explain the build'],
    ]);
    expect(ctx.facts.filter((f) => f.key === 'cwd').map((f) => [f.session_id, f.value])).toEqual([
      [S1, '/home/dev/shop'],
      [S2, 'c:\\Users\\dev\\api'],
    ]);
  });

  it('chatInteraction.jsonl: each request with its reply; a deleted session\'s prompt kept (it has no other copy); the cut last line said', async () => {
    const { rows } = await run(by['dev-data'], HOME, '.continue/dev_data/0.2.0/chatInteraction.jsonl');
    const deleted = rows.filter((r) => r.session_id === S3);
    expect(rowsOf(deleted)).toEqual([
      [5, '2026-01-07T09:00:00.000Z', 'system', 'api_request', '', '', 'chat request: model=GPT-5 provider=openai'],
      [5, '2026-01-07T09:00:00.000Z', 'user', 'rendered_prompt', '', '', 'Print the production database URL from .env'],
      [5, '2026-01-07T09:00:00.000Z', 'assistant', '', '', '', 'I cannot read secrets for you.'],
    ]);
    expect(rows.filter((r) => r.session_id === S1).map((r) => r.turn_type)).toEqual(['system', 'assistant', 'system', 'assistant', 'system', 'assistant']);
    expect(rows.at(-1)).toMatchObject({ source_line: 6, tag: 'bad_line' });
    expect(rows.at(-1)?.text).toContain('cut line');
  });

  it('toolUsage.jsonl: call, decision and result per line; editOutcome: the rejected edit', async () => {
    const tools = await run(by['dev-data'], HOME, '.continue/dev_data/0.2.0/toolUsage.jsonl');
    expect(tools.rows.map((r) => [r.source_line, r.turn_type, r.tool_use_id, r.text])).toEqual([
      [1, 'tool_use', 'call_run_1', 'npm test -- date'],
      [1, 'system', 'call_run_1', 'approved: run_terminal_command'],
      [1, 'tool_result', 'call_run_1', 'FAIL test/date.test.ts'],
      [2, 'tool_use', 'call_edit_2', '{"changes":"use getUTCDay()","filepath":"src/date.ts"}'],
      [2, 'system', 'call_edit_2', 'denied: edit_existing_file'],
      [3, 'tool_use', 'call_ls_9', '{"dirPath":"."}'],
      [3, 'system', 'call_ls_9', 'approved: ls'],
      [3, 'tool_result', 'call_ls_9', '.env\nsrc'],
    ]);
    const edits = await run(by['dev-data'], HOME, '.continue/dev_data/0.2.0/editOutcome.jsonl');
    expect(rowsOf(edits.rows)).toEqual([[1, '2026-01-05T12:02:00.000Z', 'system', 'edit_outcome', '', '', 'editOutcome: accepted=false /home/dev/shop/src/date.ts']]);
  });

  it('config.yaml: the models (no key), the MCP server with its env key name only', async () => {
    const { rows, ctx } = await run(by.config, HOME, '.continue/config.yaml');
    expect(rows.map((r) => r.text)).toEqual(['setting model Claude Sonnet 4.5 provider=anthropic model=claude-sonnet-4-5 roles=chat,edit,apply', 'setting model GPT-5 provider=openai model=gpt-5']);
    expect(ctx.mcpServers.map((s) => [s.name, s.command, s.env_keys, s.secrets?.map((x) => x.where)])).toEqual([['sqlite', 'npx', ['DB_PASSWORD'], ['env:DB_PASSWORD']]]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE|secrets\./);
    expect(by.config.readsSecretFile?.('.continue/config.yaml')).toBe(true);
  });
});

describe('continue: hostile files', () => {
  it('a cut session file: the items before the cut, then a row that says how many were read', async () => {
    const home = homes.make();
    writeFiles(home, { [`.continue/sessions/${S2}.json`]: `{"sessionId":"${S2}","history":[{"message":{"role":"user","content":"kept"}},{"message":{"role":"assistant","content":"cu` });
    const { rows } = await run(by.session, home, `.continue/sessions/${S2}.json`);
    expect(rows.find((r) => r.turn_type === 'user')?.text).toBe('kept');
    expect(rows.at(-1)?.tag).toBe('bad_line');
    expect(rows.at(-1)?.text).toMatch(/1 history items read/);
  });

  it('dev data of garbage, wrong types and a huge line: a bad_line row each, with the line number', async () => {
    const home = homes.make();
    const huge = JSON.stringify({ eventName: 'chatInteraction', timestamp: '2026-01-07T09:00:00Z', prompt: 'p'.repeat(3_000_000), completion: 'c', sessionId: 's' });
    writeFiles(home, { '.continue/dev_data/0.2.0/chatInteraction.jsonl': `garbage\n[1,2]\n{"eventName":42,"timestamp":{}}\n${huge}\n` });
    const { rows } = await run(by['dev-data'], home, '.continue/dev_data/0.2.0/chatInteraction.jsonl');
    expect(rows.filter((r) => r.tag === 'bad_line').map((r) => r.source_line)).toEqual(expect.arrayContaining([1, 2]));
    expect(rows.some((r) => r.source_line === 3)).toBe(true);
    expect(rows.some((r) => r.source_line === 4)).toBe(true);
  });

  it('a config that is not YAML: one unreadable row, no key quoted', async () => {
    const home = homes.make();
    writeFiles(home, { '.continue/config.yaml': 'models: [unclosed\napiKey: sk-FAKEbroken' });
    const { rows } = await run(by.config, home, '.continue/config.yaml');
    expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect(rows[0].text).not.toContain('FAKE');
  });
});
