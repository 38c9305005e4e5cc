import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestRow } from '@aitrail/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// VS Code Copilot Chat end to end: the built CLI collects the two fixture homes (copied, to give
// them the mtime git does not keep and a project on this machine) and analyzes each once, with
// --include-thinking.

type R = Record<string, string | number | null>;
type Dup = { dropped: R; kept: R; paired_with: R };
const SID = '5e55c0de-0000-4000-8000-000000000001';
const A = 'a0000000-0000-4000-8000-00000000000a';
const D = 'd0000000-0000-4000-8000-00000000000d';
const G = '90000000-0000-4000-8000-000000000009';
const FAKES = ['FAKE-github-pat-0000', 'FAKE-jira-token-0000', 'FAKE-proxy-password', 'FAKE-enc', 'FAKE-db-password-0000'];

interface Mcp {
  name: string;
  scope: string;
  transport: string;
  project_path?: string;
  env_keys?: string[];
  header_keys?: string[];
}

interface Done {
  manifest: ManifestRow[];
  tl: R[];
  dups: Dup[];
  sessions: Record<string, unknown>[];
  inventory: { homes: { agents: { agent: string; mcp_servers: Mcp[] }[] }[] };
  outputs: string;
  stdout: string;
  stderr: string;
}

const T = tempDir('aitrail-e2e-vscode-');
const PROJ = join(T, 'work', 'my proj');
afterAll(() => rmSync(T, { recursive: true, force: true }));

async function run(name: string, mtimes: Record<string, string>, prepare?: (home: string) => void): Promise<Done> {
  const home = join(T, name);
  cpSync(join(REPO, 'fixtures/homes', name), home, { recursive: true });
  prepare?.(home);
  for (const [rel, iso] of Object.entries(mtimes)) utimesSync(join(home, rel), new Date(iso), new Date(iso));
  const zip = join(T, `${name}.zip`);
  const c = await runCli(['collect', '--home', home, '--out', zip]);
  expect(c.code, c.stderr).toBe(0);
  const out = join(T, `${name}-out`);
  const a = await runCli(['analyze', zip, '--out', out, '--include-thinking', '--json']);
  expect(a.code, a.stderr).toBe(0);
  expect(stackTraceLines(a.stderr + c.stderr)).toEqual([]);
  const all = readdirSync(out).map((f) => (statSync(join(out, f)).isFile() ? readFileSync(join(out, f), 'utf8') : '')).join('\n');
  return {
    manifest: (await manifestOf(zip)).rows,
    tl: readJsonl<R>(join(out, 'timeline.jsonl')),
    dups: readJsonl<Dup>(join(out, 'duplicates.jsonl')),
    sessions: readJsonl(join(out, 'sessions.jsonl')),
    inventory: JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')),
    outputs: all,
    stdout: a.stdout + c.stdout,
    stderr: a.stderr + c.stderr,
  };
}

/** This agent's entry of inventory.json (the one home collected). */
function agentOf(d: Done) {
  const homes = d.inventory.homes.map((h) => ({ user: (h as { user?: string }).user, agents: h.agents.map((a) => a.agent) }));
  const agent = d.inventory.homes.flatMap((h) => h.agents).find((a) => a.agent === 'vscode-copilot-chat');
  expect(agent, `inventory homes: ${JSON.stringify(homes)}`).toBeDefined();
  return agent!;
}

const short = (r: R) => `${String(r.source_file).replace(/^homes\/[^/]+\/\.config\/Code\/User\//, '')}#${r.source_line} ${r.turn_type} ${String(r.text).split('\n')[0]}`;

describe('the spec fixture home', () => {
  let d: Done;
  beforeAll(async () => {
    d = await run('vscode-copilot-chat', { '.config/Code/User/globalStorage/github.copilot-chat/cloudSessions.json': '2026-10-01T09:00:16Z' });
  }, 180_000);

  it('collects the chat paths of the workspace folder, the extension folders and the log, and flags mcp.json', () => {
    const rels = d.manifest.filter((r) => r.status === 'collected').map((r) => r.rel);
    for (const rel of ['workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/workspace.json', `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl`, 'workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/state.vscdb', `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatEditingSessions/${SID}/contents/e4f5a6b`, 'globalStorage/github.copilot-chat/session-store.db-wal', 'globalStorage/storage.json']) {
      expect(rels).toContain(`.config/Code/User/${rel}`);
    }
    expect(d.manifest.find((r) => r.rel === '.config/Code/User/mcp.json')).toMatchObject({ status: 'collected', secret: true, agent: 'vscode-copilot-chat' });
  });

  it('drops exactly the spec eleven secondary rows, each paired with its primary twin', () => {
    expect(d.dups.map((x) => `${short(x.dropped)} <= ${short(x.kept)}`).sort()).toEqual(
      [
        `globalStorage/github.copilot-chat/session-store.db#1 assistant The fixture year was stale; it now reads 2026. <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#5 assistant The fixture year was stale; it now reads 2026.`,
        `globalStorage/github.copilot-chat/session-store.db#1 system file changed: /srv/proj/date.test.js tool=replace_string_in_file <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#4 system file changed: /srv/proj/date.test.js tool=replace_string_in_file`,
        `globalStorage/github.copilot-chat/session-store.db#1 system session name: Fix failing test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#8 system session name: Fix failing test`,
        `globalStorage/github.copilot-chat/session-store.db#1 user fix the failing test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#2 user fix the failing test`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/GitHub.copilot-chat/transcripts/${SID}.jsonl#2 user fix the failing test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#2 user fix the failing test`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/GitHub.copilot-chat/transcripts/${SID}.jsonl#4 thinking Run the tests first. <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#3 thinking Run the tests first.`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/GitHub.copilot-chat/transcripts/${SID}.jsonl#4 tool_use npm test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#3 tool_use npm test`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/GitHub.copilot-chat/transcripts/${SID}.jsonl#6 tool_result 1 failing <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#3 tool_result 1 failing`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/GitHub.copilot-chat/transcripts/${SID}.jsonl#7 assistant The fixture year was stale; it now reads 2026. <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#5 assistant The fixture year was stale; it now reads 2026.`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/state.vscdb#0 user fix the failing test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#2 user fix the failing test`,
        `workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/state.vscdb#1 system session name: Fix failing test <= workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${SID}.jsonl#8 system session name: Fix failing test`,
      ].sort(),
    );
  });

  it('keeps the secondary rows no primary holds: index metadata, edit state, transcript start, sync, sign-in, the bad line', () => {
    const kept = d.tl.filter((r) => !String(r.source_file).includes('/chatSessions/')).map((r) => `${r.turn_type} ${r.text}`);
    expect(kept.sort()).toEqual(
      [
        'system edit baseline: /srv/proj/date.test.js before=contents/a1b2c3d',
        'system edit operation: textEdit /srv/proj/date.test.js request=request_5e55-0001 epoch=2',
        'system edit state: Accepted /srv/proj/date.test.js deleted=false request=request_5e55-0001 model=copilot/gpt-6.1-sol before=contents/a1b2c3d after=contents/e4f5a6b',
        'system session metadata: created=2026-10-01T09:00:00.000Z location=panel files=1 +1 -1 state=1 pendingEdits=false external=false permission=default',
        'system session start: copilot-agent 0.66.0 vscode 1.138.0 cwd=/srv/proj',
        'system session synced: remote session cs-0001 task task-0001',
        'system signed in: octo-user (log time 2026-10-01 10:59:59.400)',
      ].sort(),
    );
    const bad = d.tl.find((r) => String(r.text).startsWith('parser: unparseable line'));
    expect([bad?.source_line, bad?.git_branch, bad?.project_path, bad?.session_id]).toEqual([10, 'main', '/srv/proj', SID]);
  });

  it('reports one session, synced, named, in /srv/proj on main, from VS Code; the MCP server in the inventory', () => {
    expect(d.sessions).toHaveLength(1);
    expect(d.sessions[0]).toMatchObject({ agent: 'vscode-copilot-chat', session_id: SID, name: 'Fix failing test', client: 'Visual Studio Code', project_path: '/srv/proj', git_branch: 'main', synced: 'yes' });
    const agent = agentOf(d);
    expect(agent.mcp_servers.map((s) => [s.name, s.scope, s.transport])).toEqual([['github', 'user', 'http']]);
  });
});

describe('the variants home', () => {
  let d: Done;
  const W1 = '.config/Code/User/workspaceStorage/1111aaaa1111aaaa1111aaaa1111aaaa';
  beforeAll(async () => {
    // A project that exists on this machine, named by a workspace.json file:// URI: its files are collected.
    const put = (path: string, text: string) => {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    };
    d = await run('vscode-variants', {}, (home) => {
      put(join(PROJ, '.github', 'copilot-instructions.md'), 'Use tabs.\n');
      put(join(PROJ, '.vscode', 'mcp.json'), JSON.stringify({ servers: { db: { command: 'uvx', args: ['mcp-db'], env: { DB_PASSWORD: 'FAKE-db-password-0000' } } } }));
      put(join(home, '.config/Code/User/workspaceStorage/9999ffff9999ffff9999ffff9999ffff/workspace.json'), JSON.stringify({ folder: `file://${PROJ.split('/').map(encodeURIComponent).join('/')}` }));
    });
  }, 180_000);
  const from = (part: string) => d.tl.filter((r) => String(r.source_file).includes(part));

  it('keeps each row both workspace copies hold once, and every row only one of them holds', () => {
    // Both copies are log files of copyRank 0: the first in path order (the original, 1111...) keeps the shared rows.
    const dropped = d.dups.filter((x) => String(x.dropped.source_file).includes(`2222bbbb2222bbbb2222bbbb2222bbbb/chatSessions/${A}`));
    expect(dropped.length).toBe(16);
    for (const x of dropped) expect([String(x.kept.source_file).includes(`1111aaaa1111aaaa1111aaaa1111aaaa/chatSessions/${A}`), x.kept.text, x.kept.timestamp_utc]).toEqual([true, x.dropped.text, x.dropped.timestamp_utc]);
    expect(from(`1111aaaa1111aaaa1111aaaa1111aaaa/chatSessions/${A}`).map((r) => r.text)).toContain('session name: Build script and cleanup');
    const after = from(`2222bbbb2222bbbb2222bbbb2222bbbb/chatSessions/${A}`);
    expect(after.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.project_path])).toEqual([
      [expect.stringMatching(/^run the whole test suite/), '/srv/app/app.code-workspace'],
      ['and then commit', '/srv/app/app.code-workspace'],
    ]);
    expect(after.map((r) => r.text)).toContain('session name: Build, clean and test');
    // The request edited away before the copy is in both copies: kept once.
    expect(d.tl.filter((r) => r.text === 'delete the dist folder').map((r) => short(r))).toEqual([`workspaceStorage/1111aaaa1111aaaa1111aaaa1111aaaa/chatSessions/${A}.jsonl#6 user delete the dist folder`]);
  });

  it('matches the store copy the store cut to the full prompt it begins (prefix rule)', () => {
    const cut = d.dups.filter((x) => String(x.dropped.text).endsWith('fix your...'));
    expect(cut.map((x) => [x.kept.turn_type, String(x.kept.source_file).includes('2222bbbb'), String(x.kept.text).startsWith(String(x.dropped.text).slice(0, -3))])).toEqual([['user', true, true]]);
  });

  it('shows the deleted session from its secondary stores: index (file=missing), edits, transcript, store', () => {
    const rows = d.tl.filter((r) => r.session_id === D);
    expect(rows.some((r) => String(r.text).endsWith('file=missing'))).toBe(true);
    // The debug log's copy anchors the cluster (same time, earlier path), the transcript's joins it;
    // the store's cut copy has no primary to match (the prefix rule matches primary rows only).
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => String(r.source_file).split('/').slice(-2).join('/'))).toEqual([`${D}/main.jsonl`, 'github.copilot-chat/session-store.db']);
    const s = d.sessions.find((x) => x.session_id === D) as Record<string, unknown>;
    expect(s).toMatchObject({ project_path: '/srv/app', name: 'Remove legacy date module' });
  });

  it('joins a remote window: the client session and the server transcript are one session', () => {
    const s = d.sessions.filter((x) => x.session_id === G);
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ client: 'Visual Studio Code' });
    expect(from('.vscode-server/data/').map((r) => r.turn_type)).toEqual(['system', 'system']);
  });

  it('reads the flagged global state.vscdb for chat keys only, and never outputs a credential', () => {
    expect(d.manifest.find((r) => r.rel === '.config/Code/User/globalStorage/state.vscdb')).toMatchObject({ status: 'collected', secret: true });
    expect(from('globalStorage/state.vscdb').map((r) => r.text)).toContain('session name: Monorepos');
    for (const f of FAKES) {
      expect(d.outputs.includes(f), f).toBe(false);
      expect(d.stdout.includes(f) || d.stderr.includes(f), f).toBe(false);
    }
    const agent = agentOf(d);
    const keys = Object.fromEntries(agent.mcp_servers.map((s) => [s.name, [s.env_keys ?? [], s.header_keys ?? []]]));
    expect(keys).toEqual({ github: [[], ['Authorization']], jira: [['JIRA_TOKEN'], []], db: [['DB_PASSWORD'], []] });
  });

  it('follows a workspace.json file:// URI to a project on this machine: its instructions collected, its flagged mcp.json read for servers', () => {
    const proj = d.manifest.filter((r) => r.scope === 'project').map((r) => [r.rel, r.status, r.secret, r.project_root]);
    expect(proj).toEqual(
      expect.arrayContaining([
        ['.github/copilot-instructions.md', 'collected', false, PROJ],
        ['.vscode/mcp.json', 'collected', true, PROJ],
      ]),
    );
    const agent = agentOf(d);
    expect(agent.mcp_servers.filter((s) => s.scope === 'project').map((s) => [s.name, s.project_path, s.env_keys])).toEqual([['db', PROJ, ['DB_PASSWORD']]]);
  });

  it('leaves History and the embeddings cache out (History only with --full)', () => {
    const skipped = d.manifest.filter((r) => r.status === 'skipped_excluded').map((r) => r.rel);
    expect(skipped).toEqual(expect.arrayContaining(['.config/Code/User/History', `${W1}/GitHub.copilot-chat/workspace-chunks.db`]));
    expect(d.manifest.some((r) => r.status === 'collected' && r.rel.includes('/History/'))).toBe(false);
  });
});
