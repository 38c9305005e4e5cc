import { describe, expect, it } from 'vitest';
import { parseText } from './test-helpers/context.js';
import { chain, jsonl, MAIN_REL, SID, user } from './test-helpers/lines.js';
import { transcriptParser } from './transcript.js';

const parse = (body: string, rel = MAIN_REL, files: Record<string, string> = {}) => parseText(transcriptParser, rel, body, { files });
const T = (s: string) => `2026-10-01T10:00:${s}.000Z`;

describe('transcript: metadata records', () => {
  it('permission mode: the first, then old -> new on a change, nothing on a repeat', async () => {
    const pm = (m: string) => ({ type: 'permission-mode', permissionMode: m, sessionId: SID });
    const { rows } = await parse(jsonl(pm('default'), user('a', {}, T('01')), pm('default'), pm('acceptEdits'), pm('acceptEdits'), pm('plan')));
    expect(rows.filter((r) => r.tag === 'permission_mode').map((r) => [r.text, r.timestamp_utc, r.source_line])).toEqual([
      ['permission mode: default', T('01'), 1],
      ['permission mode: default -> acceptEdits', T('01'), 4],
      ['permission mode: acceptEdits -> plan', T('01'), 6],
    ]);
  });

  it('session name: ai-title first and on change; a custom title wins over later AI titles; name facts', async () => {
    const ai = (t: string) => ({ type: 'ai-title', aiTitle: t, sessionId: SID });
    const { rows, ctx } = await parse(jsonl(user('a', {}, T('01')), ai('One'), ai('One'), ai('Two'), { type: 'custom-title', customTitle: 'Mine', sessionId: SID }, ai('Three')));
    expect(rows.filter((r) => r.tag === 'session_name').map((r) => r.text)).toEqual(['session name: One', 'session name: Two', 'session name: Mine']);
    const names = ctx.facts.filter((f) => f.key === 'name');
    expect(names.sort((a, b) => a.priority - b.priority)[0]).toEqual({ session_id: SID, key: 'name', value: 'Mine', priority: 1 });
  });

  it('summary once per text, at the preceding dated line time', async () => {
    const s = { type: 'summary', summary: 'Fixed the build', leafUuid: 'nowhere' };
    const { rows } = await parse(jsonl(user('a', {}, T('05')), s, s));
    expect(rows.filter((r) => r.tag === 'summary').map((r) => [r.text, r.timestamp_utc])).toEqual([['summary: Fixed the build', T('05')]]);
  });

  it('file snapshot: paths sorted, new@v<n> for a created file, at snapshot.timestamp; identical repeat skipped', async () => {
    const snap = {
      type: 'file-history-snapshot',
      messageId: 'm',
      snapshot: { messageId: 'm', timestamp: T('09'), trackedFileBackups: { '/srv/app/b.ts': { backupFileName: '0123456789abcdef@v2', version: 2, backupTime: T('09') }, '/srv/app/a.ts': { backupFileName: null, version: 1 } } },
      isSnapshotUpdate: false,
    };
    const { rows } = await parse(jsonl(user('a', {}, T('01')), snap, snap));
    expect(rows.filter((r) => r.tag === 'file_snapshot').map((r) => [r.text, r.timestamp_utc])).toEqual([
      ['file snapshot: /srv/app/a.ts=new@v1; /srv/app/b.ts=0123456789abcdef@v2', T('09')],
    ]);
  });

  it('rewind, worktree, pull request, relocation, tag, agent name, mode; last-prompt without rewound skipped', async () => {
    const { rows, ctx } = await parse(
      jsonl(
        user('a', {}, T('01')),
        { type: 'last-prompt', lastPrompt: 'a', leafUuid: 'x', sessionId: SID },
        { type: 'last-prompt', lastPrompt: 'a', leafUuid: 'x', rewound: true, cutUuid: 'u-cut', sessionId: SID },
        { type: 'worktree-state', worktreeSession: { worktreePath: '/srv/app/.claude/worktrees/w1', worktreeBranch: 'worktree-w1' }, sessionId: SID },
        { type: 'worktree-state', worktreeSession: null, sessionId: SID },
        { type: 'pr-link', prNumber: 7, prUrl: 'https://github.com/a/b/pull/7', prRepository: 'a/b', sessionId: SID },
        { type: 'relocated', relocatedCwd: '/srv/moved', sessionId: SID },
        { type: 'tag', tag: 'release', sessionId: SID },
        { type: 'agent-name', agentName: 'reviewer', sessionId: SID },
        { type: 'mode', mode: 'coordinator', sessionId: SID },
        { type: 'mode', mode: 'coordinator', sessionId: SID },
      ),
    );
    expect(rows.slice(1).map((r) => [r.text, r.tag, r.project_path])).toEqual([
      ['rewind: cut at u-cut', 'rewind', '/srv/app'],
      ['worktree: /srv/app/.claude/worktrees/w1 branch=worktree-w1', 'scratch_directory', '/srv/app/.claude/worktrees/w1'],
      ['pull request: https://github.com/a/b/pull/7', undefined, '/srv/app'],
      ['cwd relocated: /srv/moved', undefined, '/srv/moved'],
      ['tag: release', undefined, '/srv/moved'],
      ['agent name: reviewer', undefined, '/srv/moved'],
      ['mode: coordinator', undefined, '/srv/moved'],
    ]);
    // The relocation has no time of its own: the fact takes the latest dated line's.
    expect(ctx.facts.filter((f) => f.key === 'cwd').at(-1)).toEqual({ session_id: SID, key: 'cwd', value: '/srv/moved', priority: 1, at: '2026-10-01T10:00:01.000Z' });
  });

  it('metadata rows before any dated line take the first dated line time; unknown and bookkeeping types give none', async () => {
    const { rows } = await parse(jsonl({ type: 'permission-mode', permissionMode: 'auto' }, { type: 'cost-state', x: 1 }, { type: 'brand-new-type' }, user('a', {}, T('03'))));
    expect(rows.map((r) => [r.text, r.timestamp_utc, r.source_line])).toEqual([
      ['permission mode: auto', T('03'), 1],
      ['a', T('03'), 4],
    ]);
  });

  it('a bad line mid-file is a bad-line row at the preceding time, and reading goes on; a file of no dated line stays undated', async () => {
    const { rows } = await parse(jsonl(user('a', {}, T('01')), '{not json', '[1,2]', user('b', {}, T('02'))));
    expect(rows.map((r) => [r.tag, r.text, r.timestamp_utc, r.source_line])).toEqual([
      [undefined, 'a', T('01'), 1],
      ['bad_line', 'parser: unparseable line (invalid JSON): {not json', T('01'), 2],
      ['bad_line', 'parser: unparseable line (not a JSON object: an array): [1,2]', T('01'), 3],
      [undefined, 'b', T('02'), 4],
    ]);
    const undated = await parse('{"type":"permission-mode","permissionMode":"auto"}\n{oops');
    expect(undated.rows.map((r) => [r.timestamp_utc, r.tag])).toEqual([
      ['', 'permission_mode'],
      ['', 'bad_line'],
    ]);
  });

  it('lines carrying forkedFrom are tagged fork_copy', async () => {
    const { rows } = await parse(jsonl(user('copied', { forkedFrom: { sessionId: 'other', messageUuid: 'x' } })));
    expect(rows[0].tag).toBe('fork_copy');
  });
});

describe('transcript: attachments and the prompt queue', () => {
  const att = (attachment: Record<string, unknown>, extra: Record<string, unknown> = {}) => chain('attachment', { attachment, ...extra });

  it('queued_command: a user row, a task notification, or queued <origin> when meta or from a plugin', async () => {
    const { rows } = await parse(
      jsonl(
        att({ type: 'queued_command', prompt: 'also fix lint', commandMode: 'prompt' }),
        att({ type: 'queued_command', prompt: [{ type: 'text', text: 'part 1' }, { type: 'text', text: 'part 2' }] }),
        att({ type: 'queued_command', prompt: '<task-notification>bg done</task-notification>' }),
        att({ type: 'queued_command', prompt: 'plugin says hi', isMeta: true, origin: { kind: 'plugin' } }),
      ),
    );
    expect(rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['user', 'also fix lint'],
      ['user', 'part 1\npart 2'],
      ['system', 'task notification: <task-notification>bg done</task-notification>'],
      ['system', 'queued plugin: plugin says hi'],
    ]);
  });

  it('hooks, context files; other attachment types give no row', async () => {
    const { rows } = await parse(
      jsonl(
        chain('assistant', { message: { model: 'm', id: 'x', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } }),
        att({ type: 'hook_success', hookName: 'PreToolUse:Bash', toolUseID: 't1', hookEvent: 'PreToolUse', content: '' }),
        att({ type: 'file', filename: '/srv/app/CLAUDE.md', content: { type: 'text', file: { filePath: '/srv/app/CLAUDE.md' } } }),
        att({ type: 'nested_memory', path: '/srv/app/src/CLAUDE.md' }),
        att({ type: 'skill_listing', content: 'x', skillCount: 1 }),
      ),
    );
    expect(rows.slice(1).map((r) => [r.text, r.tool_name, r.tool_use_id])).toEqual([
      ['hook PreToolUse hook_success: {"content":"","hookEvent":"PreToolUse","hookName":"PreToolUse:Bash","toolUseID":"t1"}', 'Bash', 't1'],
      ['context file: /srv/app/CLAUDE.md', '', ''],
      ['context file: /srv/app/src/CLAUDE.md', '', ''],
    ]);
  });

  it('an enqueued prompt the transcript later delivers gives nothing; one never delivered is a queued user row at its own time', async () => {
    const q = (op: string, content?: string, t = T('01')) => ({ type: 'queue-operation', operation: op, timestamp: t, sessionId: SID, ...(content ? { content } : {}) });
    const { rows } = await parse(jsonl(q('enqueue', 'delivered'), q('enqueue', 'lost', T('02')), q('remove', 'lost', T('03')), q('dequeue'), user('delivered', {}, T('04'))));
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.source_line, r.tag])).toEqual([
      ['user', 'delivered', T('04'), 5, undefined],
      ['user', 'lost', T('02'), 2, 'queued'],
    ]);
  });
});

describe('transcript: sidechains', () => {
  const SUB = `.claude/projects/-srv-app/${SID}/subagents/agent-abc.jsonl`;
  const side = (extra: Record<string, unknown>) => ({ isSidechain: true, agentId: 'abc', ...extra });

  it('task with the agent type from meta.json, later messages, other rows tagged sidechain', async () => {
    const files = { [`.claude/projects/-srv-app/${SID}/subagents/agent-abc.meta.json`]: '{"agentType":"Explore","description":"d","toolUseId":"t"}' };
    const body = jsonl(
      user('find the bug', side({ parentUuid: null })),
      chain('assistant', side({ message: { model: 'claude-haiku-4-5', id: 'm', role: 'assistant', content: [{ type: 'text', text: 'found it' }] } })),
      user('and fix it', side({ parentUuid: 'u-x' })),
    );
    const { rows, ctx } = await parse(body, SUB, files);
    expect(rows.map((r) => [r.turn_type, r.text, r.tag, r.session_id])).toEqual([
      ['system', 'subagent abc (Explore) task: find the bug', 'sidechain', SID],
      ['assistant', 'found it', 'sidechain', SID],
      ['system', 'subagent abc message: and fix it', 'sidechain', SID],
    ]);
    // A subagent's cwd may be its own worktree: reported below the main transcript's priority.
    expect(ctx.facts.filter((f) => f.key === 'cwd').map((f) => f.priority)).toEqual([4]);
    const noMeta = await parse(body, SUB);
    expect(noMeta.rows[0].text).toBe('subagent abc task: find the bug');
  });

  it('a flat pre-2026 agent-<id>.jsonl takes its session id from the lines', async () => {
    const { rows } = await parse(jsonl(user('task', side({ parentUuid: null }))), '.claude/projects/-srv-app/agent-abc.jsonl');
    expect(rows.map((r) => [r.session_id, r.text, r.tag])).toEqual([[SID, 'subagent abc task: task', 'sidechain']]);
  });

  it('a set-aside copy keeps the session id of its stem', async () => {
    for (const rel of [`.claude/projects/-srv-app/${SID}.orphaned-20261001-x1.jsonl`, `.claude/projects/-srv-app/${SID}.jsonl.superseded-20261001`]) {
      const { rows } = await parse(jsonl({ ...user('a'), sessionId: 'restamped' }), rel);
      expect(rows[0].session_id, rel).toBe(SID);
    }
  });
});
