import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Kv, parseFile, STATE_SCHEMA, scratchHome, view, writeStateDb } from './test-helpers/build.js';

// One focused database per row kind, built here with better-sqlite3 in Cursor's shape.
const { dir, done } = scratchHome('global');
afterAll(done);
const G = '.config/Cursor/User/globalStorage/state.vscdb';
const C = 'c1111111-0000-4000-8000-000000000001';
let n = 0;

async function global(kv: Kv[], items: Kv[] = [], opts: { includeThinking?: boolean; extraSql?: string } = {}) {
  const home = join(dir, `h${++n}`);
  writeStateDb(home, G, items, kv, opts.extraSql);
  return parseFile(home, G, { includeThinking: opts.includeThinking });
}

const composer = (o: Record<string, unknown>, id = C): Kv => [`composerData:${id}`, { _v: 10, composerId: id, createdAt: 1790845200000, lastUpdatedAt: 1790845260000, ...o }];
const bubble = (b: string, o: Record<string, unknown>, id = C): Kv => [`bubbleId:${id}:${b}`, { _v: 3, bubbleId: b, ...o }];
const headers = (...ids: [string, number][]) => ({ fullConversationHeadersOnly: ids.map(([bubbleId, type]) => ({ bubbleId, type })) });
const texts = (rows: { turn_type: string; text: string }[]) => rows.map((r) => `${r.turn_type}: ${r.text}`);

describe('composer rows', () => {
  it('session start (keys present), model with max, name, stats, changed and new files, draft, subagents', async () => {
    const { rows } = await global([
      composer({ name: 'N', status: 'completed', unifiedMode: 'plan', modelConfig: { modelName: 'gpt-5' }, totalLinesAdded: 4, filesChangedCount: 2, originalFileStates: { 'file:///w/a.ts': {} }, newlyCreatedFiles: [{ uri: { fsPath: '/w/b.ts' } }, '/w/c.ts'], text: 'draft', subComposerIds: ['task-1'] }),
    ]);
    expect(texts(rows)).toEqual([
      'system: session start: cursor composer mode=plan status=completed',
      'system: model: gpt-5',
      'system: no messages: the composer lists none (a chat opened and never sent, or emptied)',
      'system: session name: N',
      'system: session stats: +4 files=2',
      'system: file changed: /w/a.ts',
      'system: file changed: /w/b.ts (new)',
      'system: file changed: /w/c.ts (new)',
      'system: unsent draft: draft',
      'system: subagent session: task-1',
    ]);
    expect(rows.every((r) => r.session_id === C && r.source_line === 1)).toBe(true);
    expect(rows.slice(3).every((r) => r.timestamp_utc === '2026-10-01T09:01:00.000Z')).toBe(true);
  });

  it('a subagent composer names its parent; one in ~/.cursor/worktrees is a scratch directory', async () => {
    const wt = '/home/u/.cursor/worktrees/repo/ab12';
    const { rows } = await global(
      [composer({ subComposerIds: ['task-toolu_1'] }), composer({ unifiedMode: 'agent' }, 'task-toolu_1'), composer({}, 'w1')],
      [['composer.composerHeaders', { allComposers: [{ composerId: 'w1', workspaceIdentifier: { id: 'x', uri: { scheme: 'file', fsPath: wt } } }] }]],
    );
    expect(rows.find((r) => r.session_id === 'task-toolu_1')?.text).toBe(`session start: cursor composer mode=agent subagent of ${C}`);
    expect(rows.filter((r) => r.tag === 'scratch_directory').map((r) => [r.session_id, r.text, r.project_path])).toEqual([['w1', `scratch directory: ${wt} (agent worktree)`, wt]]);
  });

  it('a header-only composer says its messages are gone; a partial one how many are missing', async () => {
    const { rows } = await global([
      composer({ name: 'gone', ...headers(['b1', 1], ['b2', 2]) }),
      composer({ ...headers(['c1', 1], ['c2', 2]) }, 'c2'),
      bubble('c1', { type: 1, text: 'hi', createdAt: '2026-10-01T09:00:01.000Z' }, 'c2'),
    ]);
    expect(rows.filter((r) => r.tag === 'messages_missing').map((r) => [r.session_id, r.text])).toEqual([
      [C, 'messages gone: the composer lists 2, no message record is left'],
      ['c2', 'messages missing: the composer lists 2, 1 have no record'],
    ]);
  });

  it('a NULL value is a cleared record; a value that is not JSON a bad line naming the key, never quoting it', async () => {
    const { rows } = await global([composer({}, 'ok'), ['composerData:nul', null], ['composerData:bad', '{"secret":"x']]);
    expect(rows.slice(-2).map(view)).toEqual([
      ['', 'nul', '', '', '', 'system', '', '', 'composer record cleared: composerData:nul holds NULL', 2, 'record_cleared'],
      ['', 'bad', '', '', '', 'system', '', '', 'parser: unparseable value for composerData:bad (not JSON)', 3, 'bad_line'],
    ]);
  });
});

describe('bubble rows', () => {
  it('a user bubble: text, else richText; time from createdAt, else the reply request time, else the previous row, else the composer', async () => {
    const rich = JSON.stringify({ root: { children: [{ type: 'paragraph', children: [{ type: 'text', text: 'from ' }, { type: 'text', text: 'lexical' }] }] } });
    const { rows } = await global([
      composer({ ...headers(['u1', 1], ['a1', 2], ['u2', 1], ['a2', 2], ['u3', 1]) }),
      bubble('u1', { type: 1, richText: rich }),
      bubble('a1', { type: 2, text: 'r1', timingInfo: { clientRpcSendTime: 1790845203000, clientEndTime: 1790845204000 } }),
      bubble('u2', { type: 1, text: 'second' }),
      bubble('a2', { type: 2, text: 'r2' }),
      bubble('u3', { type: 1, text: 'third', createdAt: 1790845230000 }),
    ]);
    const conv = rows.filter((r) => r.turn_type === 'user' || r.turn_type === 'assistant').map((r) => [r.turn_type, r.text, r.timestamp_utc, r.tag ?? '']);
    expect(conv).toEqual([
      ['user', 'from lexical', '2026-10-01T09:00:03.000Z', ''],
      ['assistant', 'r1', '2026-10-01T09:00:04.000Z', ''],
      ['user', 'second', '2026-10-01T09:00:04.000Z', 'time_neighbor'],
      ['assistant', 'r2', '2026-10-01T09:00:04.000Z', 'time_neighbor'],
      ['user', 'third', '2026-10-01T09:00:30.000Z', ''],
    ]);
    const { rows: first } = await global([composer({ ...headers(['u', 1]) }), bubble('u', { type: 1, text: 'alone' })]);
    expect(first.filter((r) => r.turn_type === 'user').map((r) => [r.timestamp_utc, r.tag])).toEqual([['2026-10-01T09:00:00.000Z', 'time_session']]);
  });

  it('a timing value on the performance clock (before 2001) is never taken for a wall-clock time', async () => {
    const { rows } = await global([
      composer({ ...headers(['u', 1], ['a', 2]) }),
      bubble('u', { type: 1, text: 'q', createdAt: 1790845201000 }),
      bubble('a', { type: 2, text: 'r', timingInfo: { clientStartTime: 4745281.3, clientEndTime: 4745999.1, clientSettleTime: '4746000' } }),
    ]);
    expect(rows.filter((r) => r.turn_type === 'assistant').map((r) => [r.timestamp_utc, r.tag])).toEqual([['2026-10-01T09:00:01.000Z', 'time_neighbor']]);
  });

  it('model rows mark the first model and each change; the model column follows the bubble', async () => {
    const { rows } = await global([
      composer({ modelConfig: { modelName: 'default', maxMode: true }, ...headers(['a', 2], ['b', 2], ['c', 2]) }),
      bubble('a', { type: 2, text: 'one', createdAt: 1790845201000, modelInfo: { modelName: 'gpt-5' } }),
      bubble('b', { type: 2, text: 'two', createdAt: 1790845202000, modelInfo: { modelName: 'gpt-5' } }),
      bubble('c', { type: 2, text: 'three', createdAt: 1790845203000, modelInfo: { modelName: 'claude-4.5-sonnet' } }),
    ]);
    expect(rows.filter((r) => r.tag === 'model' || r.turn_type === 'assistant').map((r) => [r.text, r.model])).toEqual([
      ['model: default max=true', 'default'],
      ['model: default -> gpt-5', 'gpt-5'],
      ['one', 'gpt-5'],
      ['two', 'gpt-5'],
      ['model: gpt-5 -> claude-4.5-sonnet', 'claude-4.5-sonnet'],
      ['three', 'claude-4.5-sonnet'],
    ]);
  });

  it('thinking from thinking.text or the blocks joined, only with --include-thinking', async () => {
    const kv = [composer({ ...headers(['a', 2], ['b', 2]) }), bubble('a', { type: 2, createdAt: 1, thinking: { text: 'T1', signature: 'opaque' } }), bubble('b', { type: 2, createdAt: 1, allThinkingBlocks: [{ text: 'B1' }, { text: 'B2' }] })];
    expect((await global(kv)).rows.filter((r) => r.turn_type === 'thinking').map((r) => r.text)).toEqual(['T1', 'B1\n\nB2']);
    const { rows } = await global(kv, [], { includeThinking: false });
    expect(rows.filter((r) => r.turn_type === 'thinking')).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain('opaque');
  });

  it('a rejected terminal command: the call, the decision, the cancelled result, the exit', async () => {
    const { rows } = await global([
      composer({ ...headers(['t', 2]) }),
      bubble('t', { type: 2, createdAt: 1790845201000, timingInfo: { clientEndTime: 1790845209000 }, toolFormerData: { toolCallId: 'call_1', name: 'run_terminal_command_v2', rawArgs: '', params: JSON.stringify({ command: 'rm -rf /' }), status: 'cancelled', result: JSON.stringify({ output: '', rejected: true, endedReason: 'rejected' }), userDecision: 'rejected', additionalData: { reviewData: { status: 'Rejected', selectedOption: 'skip', approvalType: 'user' } } } }),
    ]);
    expect(rows.filter((r) => r.tool_use_id === 'call_1').map((r) => [r.turn_type, r.text, r.timestamp_utc, r.tool_name, r.tag ?? ''])).toEqual([
      ['tool_use', 'rm -rf /', '2026-10-01T09:00:01.000Z', 'run_terminal_command_v2', ''],
      ['system', 'permission decision: rejected review=Rejected option=skip approval=user', '2026-10-01T09:00:01.000Z', 'run_terminal_command_v2', 'permission_decision'],
      ['tool_result', '[cancelled]', '2026-10-01T09:00:09.000Z', 'run_terminal_command_v2', ''],
      ['system', 'terminal exit: rejected=true ended=rejected', '2026-10-01T09:00:09.000Z', 'run_terminal_command_v2', 'terminal_exit'],
    ]);
  });

  it('a review status alone is a decision; a tool call with neither gives none; a result that is not JSON stays raw, an error marks it', async () => {
    const { rows } = await global([
      composer({ ...headers(['a', 2], ['b', 2]) }),
      bubble('a', { type: 2, createdAt: 1, toolFormerData: { toolCallId: 'x', name: 'mcp_fs_read', rawArgs: '{"path":"/a"}', result: 'plain text', status: 'error', additionalData: { reviewData: { status: 'Approved' } } } }),
      bubble('b', { type: 2, createdAt: 1, toolFormerData: { toolCallId: 'y', name: 'read_file', rawArgs: '{"target_file":"/b"', result: '{"contents":"B"}' } }),
    ]);
    expect(rows.filter((r) => r.tool_use_id).map((r) => `${r.turn_type}: ${r.text}`)).toEqual([
      'tool_use: {"path":"/a"}',
      'system: permission decision: Approved review=Approved',
      'tool_result: plain text [error]',
      'tool_use: {"target_file":"/b"',
      'tool_result: {"contents":"B"}',
    ]);
  });

  it('code blocks of a chat bubble; an unknown bubble type is counted, not dropped silently', async () => {
    const { rows, ctx } = await global([
      composer({ ...headers(['a', 2], ['z', 7]) }),
      bubble('a', { type: 2, createdAt: 1, text: 'here', codeBlocks: [{ uri: { scheme: 'file', fsPath: '/w/x.py' }, languageId: 'python' }, { content: 'no uri' }] }),
      bubble('z', { type: 7, createdAt: 1, text: 'new kind' }),
    ]);
    expect(texts(rows).filter((t) => t.includes('code block') || t.includes('kind'))).toEqual(['system: code block: /w/x.py lang=python']);
    expect(ctx.unknowns).toEqual([{ kind: 'bubble type 7', line: 3 }]);
  });

  it('a checkpoint names its files and the ones it created, at the user row time, with its own rowid', async () => {
    const { rows } = await global([
      composer({ ...headers(['u', 1]) }),
      bubble('u', { type: 1, text: 'go', createdAt: 1790845201000, checkpointId: 'k' }),
      [`checkpointId:${C}:k`, { files: [{ uri: { scheme: 'file', fsPath: '/w/a' } }, { uri: { scheme: 'file', path: '/w/b' } }], nonExistentFiles: [{ uri: { fsPath: '/w/new' } }] }],
    ]);
    expect(rows.filter((r) => r.tag === 'checkpoint').map((r) => [r.text, r.timestamp_utc, r.source_line])).toEqual([['checkpoint: files=2: /w/a, /w/b (+ new: /w/new)', '2026-10-01T09:00:01.000Z', 3]]);
  });

  it('bubbles the header does not list are read after it, by rowid; a bubble value that is not JSON is a bad line', async () => {
    const { rows } = await global([composer({ ...headers(['a', 2]) }), bubble('a', { type: 2, createdAt: 1, text: 'listed' }), bubble('x', { type: 2, createdAt: 2, text: 'extra' }), [`bubbleId:${C}:y`, 'not json']]);
    expect(texts(rows).slice(1, 4)).toEqual(['assistant: listed', 'assistant: extra', `system: parser: unparseable value for bubbleId:${C}:y (not JSON)`]);
  });

  it('the older forms: conversationMap (v2) in header order, conversation[] inline (v1)', async () => {
    const { rows } = await global([
      composer({ ...headers(['m1', 1], ['m2', 2]), conversationMap: { m2: { type: 2, text: 'map reply' }, m1: { type: 1, text: 'map prompt' } } }, 'v2'),
      composer({ conversation: [{ type: 1, text: 'inline prompt' }, { type: 2, text: 'inline reply' }] }, 'v1'),
    ]);
    expect(rows.filter((r) => r.turn_type !== 'system').map((r) => [r.session_id, r.text])).toEqual([
      ['v2', 'map prompt'],
      ['v2', 'map reply'],
      ['v1', 'inline prompt'],
      ['v1', 'inline reply'],
    ]);
  });

  it('orphan bubbles (no composerData) are their own session in createdAt order, tagged orphan_bubble', async () => {
    const { rows } = await global([composer({}), bubble('2', { type: 2, text: 'late', createdAt: 1790845300000 }, 'orph'), bubble('1', { type: 1, text: 'early', createdAt: 1790845290000 }, 'orph')]);
    expect(rows.filter((r) => r.session_id === 'orph').map((r) => [r.turn_type, r.text, r.tag])).toEqual([
      ['system', 'orphan conversation: 2 message record(s) of composer orph, whose composerData is gone', 'orphan_bubble'],
      ['user', 'early', 'orphan_bubble'],
      ['assistant', 'late', 'orphan_bubble'],
    ]);
  });
});

describe('ItemTable and the other keys', () => {
  const TOKENS = ['FAKE-access-0123456789', 'FAKE-refresh-0123456789', 'sk-FAKEopenai0123456789', 'FAKE-secret-storage-0123'];
  const items: Kv[] = [
    ['cursorAuth/accessToken', TOKENS[0]],
    ['cursorAuth/refreshToken', TOKENS[1]],
    ['cursorAuth/openAIKey', TOKENS[2]],
    ['secret://{"key":"cursor"}', TOKENS[3]],
    ['cursorAuth/cachedEmail', 'u@example.com'],
    ['cursorAuth/cachedSignUpType', 'Github'],
    ['src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser', { cursorCreds: { backendUrl: 'https://api2.cursor.sh' }, composerState: { useYoloMode: false, yoloPrompt: '', yoloCommandAllowlist: ['ls'], yoloCommandDenylist: [], yoloOutsideWorkspaceDisabled: true, shouldAutoContinueToolCall: false, modes4: [{ id: 'agent', autoRun: true }, { id: 'edit' }], chatLocation: 'pane' } }],
    ['aicontext.personalContext', 'Be brief.'],
  ];

  it('the sign-in row, the auto-run settings (false included, empty skipped), the user rules; no token anywhere', async () => {
    const { rows } = await global([], items);
    expect(rows.map((r) => [r.text, r.timestamp_utc, r.session_id, r.tag])).toEqual([
      ['signed in: u@example.com signup=Github', '', '', 'signed_in'],
      ['permission setting: composerState.useYoloMode=false', '2026-12-01T00:00:00.000Z', '', 'permission_setting'],
      ['permission setting: composerState.yoloCommandAllowlist=["ls"]', '2026-12-01T00:00:00.000Z', '', 'permission_setting'],
      ['permission setting: composerState.yoloOutsideWorkspaceDisabled=true', '2026-12-01T00:00:00.000Z', '', 'permission_setting'],
      ['permission setting: composerState.shouldAutoContinueToolCall=false', '2026-12-01T00:00:00.000Z', '', 'permission_setting'],
      ['permission setting: composerState.modes4.agent.autoRun=true', '2026-12-01T00:00:00.000Z', '', 'permission_setting'],
      ['user rules: Be brief.', '2026-12-01T00:00:00.000Z', '', 'user_rules'],
    ]);
    const out = JSON.stringify(rows);
    for (const t of TOKENS) expect(out).not.toContain(t);
    expect(out).not.toContain('api2.cursor.sh');
  });

  it('the reactive storage not being JSON is one row naming its key, never quoting it', async () => {
    const { rows } = await global([], [['src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser', '{"composerState": {"apiKey": "FAKE-9']]);
    expect(rows.map((r) => r.text)).toEqual(['parser: unparseable value for src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser']);
  });

  it('known key families give no row and no unknown; a new family is counted once per key', async () => {
    const { rows, ctx } = await global([
      ['inlineDiffs-1751467219852', '[]'],
      ['inlineDiffs-79c9b1d05a2ab39c4602a01626566294', '[]'],
      [`messageRequestContext:${C}:b`, '{}'],
      ['composer.content.0a1b2c3d4e5f', 'text'],
      [`codeBlockDiff:${C}:x`, '{}'],
      [`codeBlockPartialInlineDiffFates:${C}:x`, '{}'],
      ['agentKv:blob:abcd', '{}'],
      ['newFamily:1', '{}'],
      ['newFamily:2', '{}'],
    ]);
    expect(rows).toEqual([]);
    expect(ctx.unknowns).toEqual([
      { kind: 'cursorDiskKV newFamily', line: 8 },
      { kind: 'cursorDiskKV newFamily', line: 9 },
    ]);
  });

  it('the composerHeaders table gives a composer its workspace folder through that folder workspace.json', async () => {
    const home = join(dir, 'headers-table');
    writeStateDb(home, G, [], [composer({})], 'CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, recency INTEGER, checkpointAt INTEGER, subagentTypeName TEXT, value TEXT);');
    const db = new Database(join(home, G));
    db.prepare('INSERT INTO composerHeaders (composerId, workspaceId) VALUES (?, ?)').run(C, 'ws1');
    db.close();
    mkdirSync(join(home, '.config/Cursor/User/workspaceStorage/ws1'), { recursive: true });
    writeFileSync(join(home, '.config/Cursor/User/workspaceStorage/ws1/workspace.json'), JSON.stringify({ workspace: 'file:///c%3A/src/app/app.code-workspace' }));
    const { rows, ctx } = await parseFile(home, G);
    expect(ctx.facts.filter((f) => f.key === 'cwd')).toEqual([{ session_id: C, key: 'cwd', value: 'c:\\src\\app', priority: 1 }]);
    expect(rows[0].project_path).toBe('c:\\src\\app');
  });

  it('a file that is not a database, and a database without Cursor tables, are one unreadable row each', async () => {
    const home = join(dir, 'bad');
    mkdirSync(join(home, '.config/Cursor/User/globalStorage'), { recursive: true });
    writeFileSync(join(home, G), 'not sqlite at all');
    const { rows } = await parseFile(home, G);
    expect(rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', 'parser: unreadable file (expected a SQLite database (header "SQLite format 3"), found other bytes in .config/Cursor/User/globalStorage/state.vscdb; the file is corrupt or not a database)']]);
    const other = join(dir, 'other');
    mkdirSync(join(other, '.config/Cursor/User/globalStorage'), { recursive: true });
    new Database(join(other, G)).exec('CREATE TABLE t (x)');
    expect((await parseFile(other, G)).rows.map((r) => r.tag)).toEqual(['unreadable']);
  });
});

describe('hostile databases', () => {
  it('wrong types in every column: each said or counted, no row lost to a throw', async () => {
    const { rows, ctx } = await global([
      [null as unknown as string, 'x'],
      ['composerData:num', 42],
      ['composerData:arr', []],
      ['composerData:blob', Buffer.from([0xff, 0xfe, 0x00, 0x41])],
      composer({ name: 7, unifiedMode: { x: 1 }, status: null, createdAt: 'soon', fullConversationHeadersOnly: 'not a list', modelConfig: 'x', subComposerIds: [1, null, 'task-ok'] }, 'weird'),
      bubble('b', { type: '2', text: ['a'], createdAt: -5, toolFormerData: { name: 12, rawArgs: 5, result: null, userDecision: {} } }, 'weird'),
    ]);
    expect(rows.filter((r) => r.tag === 'bad_line').map((r) => r.text)).toEqual([
      'parser: unparseable value for composerData:num (not a JSON object)',
      'parser: unparseable value for composerData:arr (not a JSON object)',
      'parser: unparseable value for composerData:blob (not JSON)',
    ]);
    // A name given as a number is printed; a result of null is no result; only string sub ids count.
    expect(rows.filter((r) => r.session_id === 'weird').map((r) => `${r.turn_type}: ${r.text}`)).toEqual(['system: session start: cursor composer', 'tool_use: 5', 'system: session name: 7', 'system: subagent session: task-ok']);
    expect(ctx.unknowns).toEqual([{ kind: 'cursorDiskKV (empty key)', line: 1 }]);
  });

  it('a table without the value column stops with one row saying where, after the rows already read', async () => {
    const home = join(dir, 'novalue');
    mkdirSync(join(home, '.config/Cursor/User/globalStorage'), { recursive: true });
    const db = new Database(join(home, G));
    db.exec("CREATE TABLE ItemTable (key TEXT, value BLOB); CREATE TABLE cursorDiskKV (key TEXT); INSERT INTO ItemTable VALUES ('cursorAuth/cachedEmail', 'x@example.com'); INSERT INTO cursorDiskKV VALUES ('composerData:a')");
    db.close();
    const { rows } = await parseFile(home, G);
    expect(rows.map((r) => [r.tag, r.text.slice(0, 60)])).toEqual([
      ['signed_in', 'signed in: x@example.com'],
      ['unreadable', 'parser: the database could not be read to the end (no such c'],
    ]);
  });
});

describe('databases copied from a running Cursor', () => {
  const composerRows = (rows: { session_id: string; turn_type: string; text: string }[]) => rows.filter((r) => r.session_id === C && r.turn_type !== 'system').map((r) => r.text);

  it('WAL mode, copied while Cursor held it open: the conversation that lives only in the -wal is read', async () => {
    const live = join(dir, 'wal-live');
    mkdirSync(live);
    const w = new Database(join(live, 'state.vscdb'));
    w.pragma('journal_mode = WAL');
    w.pragma('wal_autocheckpoint = 0');
    w.exec(STATE_SCHEMA);
    w.prepare('INSERT INTO ItemTable VALUES (?, ?)').run('cursorAuth/cachedEmail', 'w@example.com');
    w.pragma('wal_checkpoint(TRUNCATE)');
    const put = w.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
    for (const [k, v] of [composer({ ...headers(['u', 1], ['a', 2]) }), bubble('u', { type: 1, text: 'only in the wal', createdAt: 1 }), bubble('a', { type: 2, text: 'reply in the wal', createdAt: 2 })]) put.run(k, JSON.stringify(v));
    const home = join(dir, 'wal-copy');
    mkdirSync(join(home, '.config/Cursor/User/globalStorage'), { recursive: true });
    for (const s of ['', '-wal', '-shm']) copyFileSync(join(live, `state.vscdb${s}`), join(home, `${G}${s}`));
    w.close();
    const { rows } = await parseFile(home, G);
    expect(composerRows(rows)).toEqual(['only in the wal', 'reply in the wal']);
    expect(rows[0].text).toBe('signed in: w@example.com');
  });

  it('rollback-journal mode, copied in the middle of a write (hot -journal): the last committed state, not the half-written one', async () => {
    const live = join(dir, 'journal-live');
    mkdirSync(live);
    const w = new Database(join(live, 'state.vscdb'));
    w.pragma('journal_mode = DELETE');
    w.exec(STATE_SCHEMA);
    const put = w.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
    for (const [k, v] of [composer({ name: 'committed', ...headers(['u', 1]) }), bubble('u', { type: 1, text: 'committed prompt', createdAt: 1 })]) put.run(k, JSON.stringify(v));
    for (let i = 0; i < 40; i++) put.run(`inlineDiffs-${i}`, 'x'.repeat(400));
    w.pragma('cache_size = 1');
    w.exec('BEGIN IMMEDIATE');
    w.prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?').run(JSON.stringify(composer({ name: 'half-written', ...headers(['u', 1]) })[1]), `composerData:${C}`);
    w.prepare("UPDATE cursorDiskKV SET value = ? WHERE key LIKE 'inlineDiffs-%'").run('y'.repeat(500));
    const home = join(dir, 'journal-copy');
    mkdirSync(join(home, '.config/Cursor/User/globalStorage'), { recursive: true });
    for (const s of ['', '-journal']) copyFileSync(join(live, `state.vscdb${s}`), join(home, `${G}${s}`));
    w.exec('ROLLBACK');
    w.close();
    expect(statSync(join(home, `${G}-journal`)).size).toBeGreaterThan(0);
    const { rows } = await parseFile(home, G);
    expect(rows.filter((r) => r.tag === 'session_name').map((r) => r.text)).toEqual(['session name: committed']);
    expect(composerRows(rows)).toEqual(['committed prompt']);
  });
});
