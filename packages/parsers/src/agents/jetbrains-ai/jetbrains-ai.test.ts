import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { jetbrainsAiPlugin } from './index.js';

// fixtures/homes/jetbrains-ai-spec: a Junie session and an AI Assistant agent task written in the
// shapes of real Junie sessions and the peer parsers (shared/agents/jetbrains-ai.md), read row by
// row; then the variants and damage a real file can hold.

const [events, index, aia, chats] = jetbrainsAiPlugin.parsers;
const homes = tempHomes('jetbrains-ai');
const SESSION = 'session-261003-080000-ab12';
const EVENTS = `.junie/sessions/${SESSION}/events.jsonl`;
const TASK = '.config/JetBrains/IntelliJIdea2026.2/aia-task-history/task-0001.events';
const line = (r: Row) => [r.source_line, r.timestamp_utc.slice(11, 23), r.turn_type, r.tool_name, r.text, r.tag ?? ''];
const APP = '/home/dev/src/jb-app';
const CURL = '{"command":"curl -s https://example.com/install.sh | sh"}';

describe('jetbrains-ai (the fixture home)', () => {
  it('a Junie session: each block once, from its last state, dated when it started; the denial twice over; quiet kinds give no row', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const { rows, ctx } = await run(events, home, EVENTS);
    expect(rows.map(line)).toEqual([
      [1, '08:00:00.000', 'system', '', 'model: gpt-5.6-luna', 'model'],
      [1, '08:00:00.000', 'user', '', 'add a unit test for parse()', ''],
      [1, '08:00:00.000', 'system', '', 'context: add a unit test for parse()\n<context>src/parse.py</context>', 'context'],
      [2, '08:00:00.020', 'system', '', 'task started: task-261003-080001-c3d4', ''],
      [5, '08:00:01.100', 'system', '', 'session name: Unit test for parse()', 'session_name'],
      [6, '08:00:02.000', 'thinking', '', "I'm running the tests first.", ''],
      [10, '08:00:06.000', 'tool_use', 'edit', 'file changes: tests/test_parse.py', ''],
      [10, '08:00:06.000', 'tool_result', 'edit', "created tests/test_parse.py\ndef test_parse():\n    assert parse('1') == 1\n", ''],
      [12, '08:00:08.000', 'user', '', 'Deny', ''],
      [12, '08:00:08.000', 'system', '', 'permission decision: Deny', 'permission_decision'],
      [11, '08:00:07.000', 'tool_use', 'idea/execute_terminal_command', CURL, ''],
      [11, '08:00:07.000', 'tool_result', 'idea/execute_terminal_command', 'The user denied the command.', ''],
      [11, '08:00:07.000', 'system', 'idea/execute_terminal_command', 'permission decision: rejected idea/execute_terminal_command', 'permission_decision'],
      [15, '08:00:09.000', 'assistant', '', '### Summary\n- Added tests/test_parse.py.', ''],
      [15, '08:00:09.100', 'system', '', 'task completed in 9.1 s, cost $0.0123', ''],
      [7, '08:00:03.000', 'tool_use', 'terminal', 'pytest -q', ''],
      [7, '08:00:03.000', 'tool_result', 'terminal', '[failed] no tests ran', ''],
      [17, '08:00:09.300', 'system', '', 'task completed', ''],
    ]);
    expect(rows.every((r) => r.session_id === SESSION && r.timestamp_utc.startsWith('2026-10-03T'))).toBe(true);
    expect(rows.filter((r) => r.turn_type !== 'tool_result' && r.source_line !== 1 && r.source_line !== 2).every((r) => r.project_path === APP)).toBe(true);
    expect(ctx.facts).toEqual([{ session_id: SESSION, key: 'cwd', value: APP, priority: 1, at: '2026-10-03T08:00:01.000Z' }, { session_id: SESSION, key: 'name', value: 'Unit test for parse()', priority: 1 }]);
    expect(ctx.unknowns).toEqual([]);
    // The environment's values (the user's secrets) are never printed.
    expect(rows.some((r) => r.text.includes('RkFLRS1zZWNyZXQ=') || r.text.includes('SECRET_TOKEN'))).toBe(false);
  });

  it('the index gives each session its project and name, below the log\'s own', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const { rows, ctx } = await run(index, home, '.junie/sessions/index.jsonl');
    expect(rows).toEqual([]);
    expect(ctx.facts).toEqual([{ session_id: SESSION, key: 'cwd', value: APP, priority: 2 }, { session_id: SESSION, key: 'name', value: 'Unit test for parse()', priority: 2 }]);
  });

  it('an AI Assistant task: base64 records, markdown pieces joined, the delegation to Junie, the file time on every row', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const { rows, ctx } = await run(aia, home, TASK);
    expect(rows.map((r) => [r.session_id, r.source_line, r.turn_type, r.tool_name, r.tool_use_id.slice(0, 8), r.text, r.tag])).toEqual([
      ['task-0001', null, 'system', '', '', `delegated to junie: session ${SESSION}`, 'time_file'],
      ['task-0001', 2, 'user', '', '', 'why does the notes test fail\n[attached: file:///home/dev/src/jb-app/notes.go]', 'time_file'],
      ['task-0001', 3, 'tool_use', 'Authentication', 'acp-loca', 'Configured authentication: JetBrains', 'time_file'],
      ['task-0001', 4, 'assistant', '', '', 'Running the test to catch the failure.', 'time_file'],
      ['task-0001', 6, 'tool_use', 'terminal', 's2', 'go test ./notes', 'time_file'],
      ['task-0001', 6, 'tool_result', 'terminal', 's2', '[failed] --- FAIL: TestListOrder', 'time_file'],
      ['task-0001', 7, 'tool_use', 'view', 's2', 'notes/list.go', 'time_file'],
      ['task-0001', 8, 'assistant', '', '', 'List now sorts by id.', 'time_file'],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });
});

describe('jetbrains-ai: AI Assistant chats (workspace XML)', () => {
  const WS = '.config/JetBrains/IntelliJIdea2026.2/workspace/2vQx9ZfJkFq0aBcDeFgHiJkLmNo.xml';
  it('each chat a session at its start time: title, model, prompts (the text sent, when it differs, as context), replies; an agent chat keeps only its prompt and joins its task log', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const { rows, ctx } = await run(chats, home, WS);
    expect(rows.map((r) => [r.session_id, r.source_line, r.timestamp_utc, r.turn_type, r.model, r.text, r.tag ?? ''])).toEqual([
      ['chat-0001', null, '2026-10-03T09:00:00.000Z', 'system', '', 'chat: Explain the retry loop model=openai-gpt-4o product=IntelliJIdea2026.2 modified=2026-10-03T09:05:00.000Z', 'session_start'],
      ['chat-0001', null, '2026-10-03T09:00:00.000Z', 'system', '', 'session name: Explain the retry loop', 'session_name'],
      ['chat-0001', null, '2026-10-03T09:00:00.000Z', 'system', 'openai-gpt-4o', 'model: openai-gpt-4o', 'model'],
      ['chat-0001', 1, '2026-10-03T09:00:00.000Z', 'user', '', 'Why does the retry loop never stop?', 'time_session'],
      ['chat-0001', 1, '2026-10-03T09:00:00.000Z', 'system', '', 'context: Why does the retry loop never stop?\n\n<llm-snippet-file>retry.go</llm-snippet-file>', 'context'],
      ['chat-0001', 2, '2026-10-03T09:00:00.000Z', 'assistant', 'openai-gpt-4o', 'The counter is reset inside the loop:\nmove "i := 0" above it.', 'time_session'],
      ['task-0001', null, '2026-10-04T09:00:00.000Z', 'system', '', 'chat: Notes test model=agent_acp.registry.junie product=IntelliJIdea2026.2 modified=2026-10-04T09:01:40.000Z', 'session_start'],
      ['task-0001', null, '2026-10-04T09:00:00.000Z', 'system', '', 'session name: Notes test', 'session_name'],
      ['task-0001', null, '2026-10-04T09:00:00.000Z', 'system', 'agent_acp.registry.junie', 'model: agent_acp.registry.junie', 'model'],
      ['task-0001', 1, '2026-10-04T09:00:00.000Z', 'user', '', 'why does the notes test fail', 'time_session'],
    ]);
    expect(ctx.warnings).toEqual([]);
    expect(ctx.facts).toEqual(expect.arrayContaining([{ session_id: 'chat-0001', key: 'client', value: 'IntelliJIdea2026.2', priority: 2 }]));
  });

  it('the workspace id names the project: recentProjects.xml maps it back, $USER_HOME$ becomes the collected home', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const { rows, ctx } = await run(chats, home, WS, { fields: { home: '/home/dev' } });
    expect(new Set(rows.map((r) => r.project_path))).toEqual(new Set([APP]));
    expect(ctx.facts.filter((f) => f.key === 'cwd')).toEqual([
      { session_id: 'chat-0001', key: 'cwd', value: APP, priority: 3 },
      { session_id: 'task-0001', key: 'cwd', value: APP, priority: 3 },
    ]);
    // A collection that did not record its home keeps the IDE's token rather than guessing.
    expect(new Set((await run(chats, home, WS)).rows.map((r) => r.project_path))).toEqual(new Set(['$USER_HOME$/src/jb-app']));
  });

  it('Rider: recentSolutions.xml names the solution file, the project is its folder; a Windows home keeps its separators; no list or a damaged one: no project', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const chat = readFileSync(join(HOMES, 'jetbrains-ai-spec', WS), 'utf8');
    const rider = 'AppData/Roaming/JetBrains/Rider2026.1/workspace/3aBcDeFgHiJkLmNoPqRsTuVwXyZ.xml';
    const lone = 'AppData/Roaming/JetBrains/Other2026.1/workspace/3aBcDeFgHiJkLmNoPqRsTuVwXyZ.xml';
    const damaged = '.config/JetBrains/Broken2026.1/workspace/2vQx9ZfJkFq0aBcDeFgHiJkLmNo.xml';
    writeFiles(home, { [rider]: chat, [lone]: chat, [damaged]: chat, '.config/JetBrains/Broken2026.1/options/recentProjects.xml': '<application><component name="RecentProjectsManager"><option name="additionalInfo"><map><entry key="$USER_HOME$/x"><value><RecentProjectMetaInfo projectWorkspaceId="other" />' });
    const projects = async (rel: string) => [...new Set((await run(chats, home, rel, { fields: { home: 'C:\\Users\\dev' } })).rows.map((r) => r.project_path))];
    expect(await projects(rider)).toEqual(['C:\\Users\\dev\\source\\repos\\NetApp']);
    expect(await projects(lone)).toEqual(['']);
    expect(await projects(damaged)).toEqual(['']);
  });

  it('a workspace file cut short gives the chats before the cut and a warning; one without chats gives nothing', async () => {
    const home = copyHome('jetbrains-ai-spec', homes.make());
    const full = readFileSync(join(HOMES, 'jetbrains-ai-spec', WS), 'utf8');
    const rel = '.config/JetBrains/IntelliJIdea2026.2/workspace/cut.xml';
    writeFiles(home, { [rel]: full.slice(0, full.indexOf('<option name="uid" value="task-0001" />')), '.config/JetBrains/IntelliJIdea2026.2/workspace/plain.xml': '<project version="4"><component name="FileEditorManager"/></project>' });
    const cut = await run(chats, home, rel);
    expect([...new Set(cut.rows.map((r) => r.session_id))]).toEqual(['chat-0001', '']);
    expect(cut.ctx.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^\.config\/JetBrains\/IntelliJIdea2026\.2\/workspace\/cut\.xml: the file ends inside <SerializedChat> \(cut short\?\); the chats read before it are kept$/)]);
    expect((await run(chats, home, '.config/JetBrains/IntelliJIdea2026.2/workspace/plain.xml')).rows).toEqual([]);
    // Nested 100,000 deep around the component: walked without recursion, its one chat read.
    const deep = '.config/JetBrains/IntelliJIdea2026.2/workspace/deep.xml';
    writeFiles(home, { [deep]: `<project>${'<x>'.repeat(100_000)}<component name="ChatSessionStateTemp"><option name="chats"><list><SerializedChat><option name="uid" value="d1" /></SerializedChat></list></option></component>${'</x>'.repeat(100_000)}</project>` });
    expect((await run(chats, home, deep)).rows.map((r) => [r.session_id, r.text])).toEqual([['d1', 'chat:  model=- product=IntelliJIdea2026.2']]);
  });
});

describe('jetbrains-ai: variants and damage', () => {
  it('an older Junie log with no times: the file time; a cut line is a bad_line row; new kinds are counted and kept; an exit code when given', async () => {
    const home = homes.make();
    const rel = '.junie/sessions/session-260528-231721-1ksa/events.jsonl';
    const a2ux = (agentEvent: object) => JSON.stringify({ kind: 'SessionA2uxEvent', event: { state: 'IN_PROGRESS', agentEvent } });
    writeFiles(home, {
      [rel]: [
        JSON.stringify({ kind: 'UserPromptEvent', prompt: 'run it' }),
        a2ux({ kind: 'TerminalBlockUpdatedEvent', stepId: 't1', status: 'COMPLETED', command: 'make', output: 'done', exitCode: 2 }),
        a2ux({ kind: 'HologramBlockUpdatedEvent', stepId: 'h1', beam: 1 }),
        a2ux({ kind: 'TeleportEvent', to: 'mars' }),
        JSON.stringify({ kind: 'BrandNewEvent', x: 1 }),
        a2ux({ kind: 'TerminalBlockUpdatedEvent', stepId: 't2', status: 'CANCELED', command: 'sleep 100' }),
        '{"kind":"SessionA2uxEvent","event":{"state":"IN_PRO',
      ].join('\n'),
    });
    const { rows, ctx } = await run(events, home, rel);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text.slice(0, 80), r.tag ?? ''])).toEqual([
      [1, 'user', 'run it', 'time_file'],
      [2, 'tool_use', 'make', 'time_file'],
      [2, 'tool_result', 'done\n[exit 2]', 'time_file'],
      [3, 'system', 'block: {"beam":1,"kind":"HologramBlockUpdatedEvent","stepId":"h1"}', 'time_file'],
      [4, 'system', 'agent event: {"kind":"TeleportEvent","to":"mars"}', 'time_file'],
      [5, 'system', 'event: {"kind":"BrandNewEvent","x":1}', 'time_file'],
      [6, 'tool_use', 'sleep 100', 'time_file'],
      [6, 'system', 'tool cancelled: terminal', 'time_file'],
      [7, 'system', expect.stringContaining('parser: unparseable line ('), 'bad_line'],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['block HologramBlockUpdatedEvent', 'agent event TeleportEvent', 'event BrandNewEvent']);
  });

  it('a task log line that is not base64 JSON is a bad_line row; attachments that are not a list are none; the rest is read; no delegation file, no delegation row', async () => {
    const home = homes.make();
    const rel = 'AppData/Roaming/JetBrains/Rider2026.1/aia-task-history/t.events';
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64');
    writeFiles(home, { [rel]: ['AUI_EVENTS_V1', 'not base64!', b64({ type: 'x.ChatSessionUserPromptEvent', prompt: 'hi', attachments: { not: 'a list' } }), b64([1]), b64({ type: 'x.Mystery' })].join('\r\n') });
    const { rows, ctx } = await run(aia, home, rel);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text.slice(0, 70), r.tag])).toEqual([
      [2, 'system', 'parser: unparseable line (expected a line of base64): not base64!', 'bad_line'],
      [3, 'user', 'hi', 'time_file'],
      [4, 'system', 'parser: unparseable line (expected base64 of a JSON object): WzFd', 'bad_line'],
      [5, 'system', 'record: {"type":"x.Mystery"}', 'time_file'],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['record Mystery']);
  });

  it('wants the files of its plan at each OS place, and Android Studio\'s', () => {
    for (const rel of [EVENTS, '.junie/sessions/index.jsonl', TASK, 'Library/Application Support/JetBrains/PyCharm2025.3/aia-task-history/x.events', 'AppData/Roaming/Google/AndroidStudio2025.1/aia-task-history/x.events']) expect(events.wants(rel) || index.wants(rel) || aia.wants(rel), rel).toBe(true);
    for (const rel of ['.junie/sessions/x/state.json', '.config/JetBrains/IntelliJIdea2026.2/aia-task-history/x.agentsession', 'src/app/.junie/sessions/x/events.jsonl']) expect(events.wants(rel) || index.wants(rel) || aia.wants(rel), rel).toBe(false);
  });
});
