import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cursorParsers } from './index.js';
import { cursorFileOf } from './paths.js';
import { parseFile, scratchHome } from './test-helpers/build.js';

// Every Cursor file of the shared real corpus (shared/corpus/real/PROVENANCE.md), read in place
// (databases through a private copy with their sidecars, as the analyzer does; never copied into
// the repository). Each file is either parsed, with its rows checked against counts computed here
// from the file itself, or named below with the reason it gives no row.
const REAL = fileURLToPath(new URL('../../../../../../shared/corpus/real/', import.meta.url));
const HOMES = ['brow__dotfiles', 'anuragabhay__my-dev-workspace', 'ItIsCiprian__dotfiles-linux'];
const present = existsSync(join(REAL, HOMES[0]));
const { dir: TMP, done } = scratchHome('corpus');
afterAll(done);

function files(home: string, sub = ''): string[] {
  const out: string[] = [];
  const d = join(REAL, home, sub);
  for (const e of readdirSync(d).sort()) {
    const rel = sub ? `${sub}/${e}` : e;
    if (statSync(join(d, e)).isDirectory()) out.push(...files(home, rel));
    else out.push(rel);
  }
  return out;
}

// Files no parser reads, and why (docs/agents/cursor.md, "Collected, not parsed").
const NOT_PARSED: [RegExp, string][] = [
  [/-(?:wal|shm)$/, 'a SQLite sidecar: read with its database'],
  [/\/argv\.json$/, 'launch flags'],
  [/\/ide_state\.json$/, 'recently viewed files (UI state)'],
  [/\/(?:blocklist|unified_repo_list\.json)$/, 'the CLI lists (empty in every file seen)'],
  [/\/skip-cursor-agent-download$/, 'an empty marker file'],
  [/\/worker\.log$/, "the CLI indexing worker's log: no time, no conversation"],
  [/\/repo\.json$/, "the indexed repository's id"],
  [/\/plans\/[^/]+\.plan\.md$/, 'plan-mode plans (agent artifacts)'],
  [/\/hooks\/[^/]+$/, 'a hook script (hooks.json names it)'],
  [/\/agent-tools\/[^/]+\.txt$/, 'a tool output spilled to a file (the transcript names the call)'],
  [/globalStorage\/storage\.json$/, 'window state (a project hint for the collector)'],
];

describe.skipIf(!present)('the real corpus, file by file', () => {
  const all = HOMES.flatMap((h) => files(h).filter((r) => /^(?:\.cursor|\.config\/Cursor)\//.test(r)).map((rel) => ({ home: h, rel })));

  it('every Cursor file is wanted by exactly one parser or named with a reason', () => {
    expect(all.length).toBe(44);
    for (const { rel } of all) {
      const wanted = cursorParsers.filter((p) => p.wants(rel)).map((p) => p.name);
      const reason = NOT_PARSED.find(([re]) => re.test(rel))?.[1];
      expect([rel, wanted.length === 1 || (wanted.length === 0 && reason !== undefined)]).toEqual([rel, true]);
      if (wanted.length === 1) expect([rel, reason]).toEqual([rel, undefined]);
      expect(cursorFileOf(rel) === undefined).toBe(wanted.length === 0);
    }
  });

  it('every parsed file gives rows, facts or MCP reports, never a bad or unreadable row, never an unknown kind', async () => {
    for (const { home, rel } of all.filter((f) => cursorFileOf(f.rel))) {
      const { rows, ctx } = await parseFile(join(REAL, home), rel, { copyTo: TMP });
      const bad = rows.filter((r) => r.tag === 'bad_line' || r.tag === 'unreadable');
      expect([rel, bad]).toEqual([rel, []]);
      expect([rel, ctx.unknowns]).toEqual([rel, []]);
      const kind = cursorFileOf(rel);
      const given = rows.length + ctx.facts.length + ctx.mcpServers.length;
      // SERVER_METADATA.json only names the server for its tools/ files.
      if (!rel.endsWith('SERVER_METADATA.json')) expect([rel, kind, given > 0]).toEqual([rel, kind, true]);
    }
  });
});

describe.skipIf(!present)('ItIsCiprian: Cursor on Linux, July 2025 (rollback-journal state.vscdb)', () => {
  const home = join(REAL, 'ItIsCiprian__dotfiles-linux');
  const G = '.config/Cursor/User/globalStorage/state.vscdb';

  for (const rel of [G, `${G}.backup`]) {
    it(`${rel.split('/').pop()}: one session per composer record, cleared ones said, no token read`, async () => {
      const copy = join(TMP, `count-${rel.split('/').pop()}`);
      copyFileSync(join(home, rel), copy);
      const db = new Database(copy, { readonly: true });
      const recs = db.prepare("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'").all() as { key: string; value: string | null }[];
      db.close();
      const live = recs.filter((r) => r.value !== null).map((r) => r.key.slice('composerData:'.length));
      const nulls = recs.filter((r) => r.value === null).map((r) => r.key.slice('composerData:'.length));
      expect([live.length, nulls.length]).toEqual([314, 3]);
      const { rows, ctx } = await parseFile(home, rel, { copyTo: TMP });
      const starts = rows.filter((r) => r.tag === 'session_start').map((r) => r.session_id);
      expect(new Set(starts)).toEqual(new Set(live));
      expect(starts).toHaveLength(314);
      expect(rows.filter((r) => r.tag === 'record_cleared').map((r) => r.session_id).sort()).toEqual(nulls.sort());
      // Every composer of 2025 here lists no message and none is left: an opened, never-sent chat.
      expect(rows.filter((r) => r.tag === 'session_empty')).toHaveLength(314);
      expect(rows.filter((r) => r.turn_type !== 'system')).toEqual([]);
      expect(rows.find((r) => r.tag === 'signed_in')?.text).toBe('signed in: ionutcipriananescu@gmail.com plan=free signup=Github');
      expect(rows.filter((r) => r.tag === 'permission_setting').map((r) => r.text)).toEqual([
        'permission setting: composerState.autoApplyFilesOutsideContext=true',
        'permission setting: composerState.shouldAutoContinueToolCall=false',
        'permission setting: composerState.useYoloMode=false',
        'permission setting: composerState.yoloMcpToolsDisabled=false',
        'permission setting: composerState.yoloDeleteFileDisabled=false',
        'permission setting: composerState.yoloDotFilesDisabled=true',
        'permission setting: composerState.yoloOutsideWorkspaceDisabled=true',
        'permission setting: composerState.autoAcceptWebSearchTool=false',
        'permission setting: composerState.modes4.agent.autoRun=false',
        'permission setting: composerState.modes4.chat.autoRun=false',
        'permission setting: composerState.modes4.edit.autoRun=false',
        'permission setting: composerState.modes4.background.autoRun=false',
      ]);
      // inlineDiffs-<ms> and inlineDiffs-<workspace id> are known families.
      expect(ctx.unknowns).toEqual([]);
      // The collector blanked the tokens to this marker: it never reaches a row.
      expect(JSON.stringify(rows)).not.toContain('REDACTED_BY_COLLECTOR');
    });
  }

  it('the workspace databases: their composers belong to the folder workspace.json names; the open date is a row', async () => {
    for (const ws of ['304dfdc46cfb1a233db7e99a1ce18124', '79c9b1d05a2ab39c4602a01626566294']) {
      const { rows, ctx } = await parseFile(home, `.config/Cursor/User/workspaceStorage/${ws}/state.vscdb`, { copyTo: TMP });
      expect(rows.map((r) => [r.text, r.project_path, r.tag])).toEqual([['workspace opened: /home/ionutcipriananescu/Developer', '/home/ionutcipriananescu/Developer', 'workspace_opened']]);
      expect(new Set(ctx.facts.map((f) => f.value))).toEqual(new Set(['/home/ionutcipriananescu/Developer']));
      expect(ctx.facts.length).toBe(3);
      expect(JSON.stringify(rows)).not.toContain('pathEncryptionKey');
    }
  });
});

describe.skipIf(!present)('brow: cursor-agent 2025.10.21 on macOS', () => {
  const home = join(REAL, 'brow__dotfiles');
  const store = '.cursor/chats/9f6abfa6c66a6abd40306ebc2591d767/90786f14-c1c0-42b1-b5c0-b1e4fa0bcf77/store.db';

  it('the chat store: the session, then every JSON message of the root blob in order, the prompt once', async () => {
    const copy = join(TMP, 'brow-store');
    for (const s of ['', '-wal', '-shm']) copyFileSync(join(home, store + s), `${copy}${s}`);
    const db = new Database(copy, { readonly: true });
    const msgs = (db.prepare('SELECT data FROM blobs').all() as { data: Buffer }[]).flatMap((b) => {
      try {
        const v = JSON.parse(b.data.toString('utf8'));
        return v && typeof v.role === 'string' ? [v] : [];
      } catch {
        return [];
      }
    });
    db.close();
    const parts = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content.map((p: { type: string }) => `${m.role}:${p.type}`) : [`${m.role}:string`]));
    const count = (k: string) => parts.filter((p) => p === k).length;
    const { rows, ctx } = await parseFile(home, store, { copyTo: TMP, includeThinking: false });
    const by = (t: string) => rows.filter((r) => r.turn_type === t).length;
    expect(rows.slice(0, 3).map((r) => [r.text, r.timestamp_utc, r.project_path])).toEqual([
      ['session start: cursor-agent mode=default', '2025-10-22T14:34:26.198Z', '/Users/tomb/Documents/interviewing'],
      ['session name: Summarize Repo', '2025-10-22T14:34:26.198Z', '/Users/tomb/Documents/interviewing'],
      ['model: default', '2025-10-22T14:34:26.198Z', '/Users/tomb/Documents/interviewing'],
    ]);
    expect(msgs).toHaveLength(17);
    expect(by('tool_use')).toBe(count('assistant:tool-call'));
    expect(by('tool_result')).toBe(count('tool:tool-result'));
    expect(by('assistant')).toBe(count('assistant:text'));
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['Summarize this repo']);
    expect(rows.filter((r) => r.tag === 'system_prompt')).toHaveLength(1);
    expect(rows.filter((r) => r.tag === 'user_context')).toHaveLength(1);
    expect(rows.slice(3).every((r) => r.tag === 'time_session' || r.tag === 'system_prompt' || r.tag === 'user_context')).toBe(true);
    // The store's folder is the md5 of the workspace its <user_info> names: verified, best priority.
    expect(ctx.facts).toEqual([
      { session_id: '90786f14-c1c0-42b1-b5c0-b1e4fa0bcf77', key: 'cwd', value: '/Users/tomb/Documents/interviewing', priority: 1 },
      { session_id: '90786f14-c1c0-42b1-b5c0-b1e4fa0bcf77', key: 'client', value: 'cursor-agent', priority: 1 },
    ]);
  });

  it('prompt history, CLI permissions, MCP approvals, the trusted workspace, the MCP servers and their cached tools', async () => {
    const rows = async (rel: string) => (await parseFile(home, rel)).rows.map((r) => [r.text, r.project_path]);
    expect(await rows('.cursor/prompt_history.json')).toEqual([['Summarize this repo', '']]);
    expect(await rows('.cursor/cli-config.json')).toEqual([
      ['permission setting: permissions.allow=Shell(ls)', ''],
      ['permission setting: approvalMode=allowlist', ''],
      ['permission setting: sandbox={"mode":"disabled","networkAccess":"allowlist"}', ''],
    ]);
    const approvals = JSON.parse(readFileSync(join(home, '.cursor/projects/Users-tomb-Documents-interviewing/mcp-approvals.json'), 'utf8')) as string[];
    expect(await rows('.cursor/projects/Users-tomb-Documents-interviewing/mcp-approvals.json')).toEqual(approvals.map((a) => [`permission setting: mcp server approved: ${a}`, '/Users/tomb/Documents/interviewing']));
    expect(await rows('.cursor/projects/Users-tomb-Documents-interviewing/.workspace-trusted')).toEqual([['permission setting: workspace trusted: /Users/tomb/Documents/interviewing', '/Users/tomb/Documents/interviewing']]);
    const mcp = (await parseFile(home, '.cursor/mcp.json')).ctx.mcpServers;
    expect(mcp.map((s) => [s.name, s.command, s.env_keys ?? []])).toEqual([
      ['playwright', 'npx', []],
      ['jira', 'npx', ['JIRA_EMAIL']],
      ['slack', 'uvx', ['SLACK_DEFAULT_WORKSPACE_ID']],
      ['gcal', 'uvx', []],
      ['snowflake', 'uvx', []],
      ['Linear', 'uvx', []],
    ]);
    const cache = JSON.parse(readFileSync(join(home, '.cursor/projects/Users-tomb-Documents-interviewing/mcp-cache.json'), 'utf8')) as Record<string, { tools: { name: string }[] }>;
    const cached = (await parseFile(home, '.cursor/projects/Users-tomb-Documents-interviewing/mcp-cache.json')).ctx.mcpServers;
    expect(cached.map((s) => [s.name, s.tools?.length])).toEqual(Object.entries(cache).map(([k, v]) => [k, v.tools.length]));
  });
});

describe.skipIf(!present)('anuragabhay: Cursor IDE, February 2026 (.txt transcripts, terminals, hooks)', () => {
  const home = join(REAL, 'anuragabhay__my-dev-workspace');
  const dir = '.cursor/projects/1771088653928/agent-transcripts';

  it('each .txt transcript: every typed prompt once, every tool call once, no row without a session', async () => {
    for (const f of readdirSync(join(home, dir)).sort()) {
      const text = readFileSync(join(home, dir, f), 'utf8');
      // A query left empty (only images sent) is no prompt: its images are the user context row.
      const queries = [...text.matchAll(/<user_query>\n([\s\S]*?)\n<\/user_query>/g)].map((m) => m[1]);
      const prompts = queries.filter((q) => q !== '');
      const calls = [...text.matchAll(/^\[Tool call\] (.+)$/gm)].map((m) => m[1]);
      const blocks = text.match(/^assistant:$/gm)?.length ?? 0;
      const { rows } = await parseFile(home, `${dir}/${f}`);
      expect([f, rows.filter((r) => r.turn_type === 'user').map((r) => r.text)]).toEqual([f, prompts]);
      expect([f, rows.filter((r) => r.turn_type === 'tool_use').map((r) => r.tool_name)]).toEqual([f, calls]);
      const replies = rows.filter((r) => r.turn_type === 'assistant').length;
      expect(replies).toBeGreaterThan(0);
      expect(replies).toBeLessThanOrEqual(blocks);
      expect(rows.every((r) => r.session_id === f.replace(/\.txt$/, '') && r.project_path === '')).toBe(true);
      // A user block holding more than its query (images, attached files) gives one user-context row.
      const userBlocks = text.split(/\n\n(?=user:\n|assistant:\n)/).filter((b) => b.startsWith('user:\n'));
      const withContext = userBlocks.filter((b) => b.slice(5).replace(/<user_query>\n[\s\S]*?\n<\/user_query>/g, '').replace(/\[Image\]/g, '').trim() !== '');
      expect([f, rows.filter((r) => r.tag === 'user_context').length]).toEqual([f, withContext.length]);
    }
  });

  it('terminals: their cwd as the project; hooks; the user MCP server and its tool descriptor', async () => {
    const t = await parseFile(home, '.cursor/projects/Users-anuragabhay-workspaces-deal-tracker-api/terminals/1.txt');
    const body = readFileSync(join(home, '.cursor/projects/Users-anuragabhay-workspaces-deal-tracker-api/terminals/1.txt'), 'utf8').split('\n---\n')[1];
    expect(t.rows.map((r) => r.project_path)).toEqual(['/Users/anuragabhay/workspaces/deal-tracker-api', '/Users/anuragabhay/workspaces/deal-tracker-api']);
    expect(t.rows[1].text.startsWith('terminal last command: % Total')).toBe(true);
    expect(t.rows[0].text).toBe(`terminal: 1.txt pid=38812 cwd=/Users/anuragabhay/workspaces/deal-tracker-api lines=${body.replace(/\n$/, '').split('\n').length}`);
    expect((await parseFile(home, '.cursor/hooks.json')).rows.map((r) => r.text)).toEqual(['hook (user) stop: python3 /Users/anuragabhay/my-dev-workspace/.cursor/hooks/stop_hook.py']);
    const mcp = (await parseFile(home, '.cursor/mcp.json')).ctx.mcpServers;
    expect(mcp.map((s) => [s.name, s.scope, s.env_keys, s.secrets?.map((x) => x.where)])).toEqual([['agent-automation', 'user', ['PYTHONPATH'], ['env:PYTHONPATH']]]);
    const tool = await parseFile(home, '.cursor/projects/Users-anuragabhay-workspaces-deal-tracker-api/mcps/user-agent-automation/tools/mark_task_complete.json');
    expect(tool.ctx.mcpServers).toEqual([{ name: 'agent-automation', scope: '', tools: [{ name: 'mark_task_complete' }] }]);
  });
});
