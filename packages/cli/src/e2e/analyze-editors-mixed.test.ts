import { cpSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ManifestRow } from '@aitrail/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// One home holding VS Code (Copilot Chat), Cursor and the Codex extension of both editors, beside
// three homes holding each alone, in one mounted image: the built CLI collects and analyzes the
// image once. The homes are composed here from the committed fixture homes (vscode-copilot-chat,
// cursor-spec, codex-live-0171; see their READMEs) plus a few small files written below: a
// Copilot Chat session kept in Cursor's workspace folder (VS Code's chat is core code, so Cursor
// writes it too) and the Codex extension's globalStorage in four editor folders (Kiro's only the anchor reaches). Copies keep
// their mtimes so that rows timed by a file's mtime are the same in every home.
// The editor-family anchors must give each agent its own files, a file two catalogs claim one
// manifest row naming both, and each agent the same rows in the shared home as alone.

type Row = Record<string, string | number | null>;
interface Session {
  user: string;
  agent: string;
  session_id: string;
  client: string;
}

const FIX = join(REPO, 'fixtures/homes');
const CW = '.config/Cursor/User/workspaceStorage/9a8b7c6d5e4f30211203f4e5d6c7b8a9';
const IN_CURSOR = 'c5c5c5c5-0000-4000-8000-0000000000c5';
const EXT_DIRS = ['.config/Code', '.config/Cursor', '.cursor-server/data', '.config/Kiro'].map((d) => `${d}/User/globalStorage/openai.chatgpt`);
const STAMP = new Date('2026-10-02T08:00:00Z');

// A flat (version 3) session as VS Code core writes it, one request: the shape of the real
// aholicg/Debian files (shared/corpus/real), trimmed to what the parser reads.
const SESSION = {
  version: 3,
  requesterUsername: 'octo-user',
  responderUsername: 'GitHub Copilot',
  initialLocation: 'panel',
  requests: [
    {
      requestId: 'request_c5-1',
      message: { parts: [{ kind: 'text', text: 'list the routes of this app' }], text: 'list the routes of this app' },
      response: [{ value: 'There are two routes: / and /health.' }],
      timestamp: 1790928000000,
      modelId: 'copilot/gpt-4.1',
      agent: { id: 'github.copilot.editsAgent' },
    },
  ],
  sessionId: IN_CURSOR,
  creationDate: 1790927990000,
  customTitle: 'Routes in Cursor',
};

function writeStamped(home: string, rel: string, text: string): void {
  mkdirSync(dirname(join(home, rel)), { recursive: true });
  writeFileSync(join(home, rel), text);
  utimesSync(join(home, rel), STAMP, STAMP);
}

function vscodeHome(home: string): void {
  cpSync(join(FIX, 'vscode-copilot-chat'), home, { recursive: true, preserveTimestamps: true, filter: (s) => !s.endsWith('README.md') });
}
function cursorHome(home: string): void {
  cpSync(join(FIX, 'cursor-spec'), home, { recursive: true, preserveTimestamps: true, filter: (s) => !s.endsWith('README.md') });
  writeStamped(home, `${CW}/chatSessions/${IN_CURSOR}.json`, JSON.stringify(SESSION, null, 2));
}
function codexHome(home: string): void {
  cpSync(join(FIX, 'codex-live-0171'), home, { recursive: true, preserveTimestamps: true, filter: (s) => !s.endsWith('README.md') });
  for (const [i, d] of EXT_DIRS.entries()) writeStamped(home, `${d}/state-${i}.json`, '{"openai.chatgpt":true}\n');
}

const HOMES = { mixed: [vscodeHome, cursorHome, codexHome], vs: [vscodeHome], cur: [cursorHome], cx: [codexHome] };
const AGENTS = ['vscode-copilot-chat', 'cursor', 'codex-cli'];
const ALONE = ['vs', 'cur', 'cx'];

// Which catalogs claim a file of the shared home, by its path: the first rule that matches.
const CLAIMS: [RegExp, string[]][] = [
  [/\/openai\.chatgpt\//, ['codex-cli']],
  [/^\.codex\//, ['codex-cli']],
  [/^\.cursor\//, ['cursor']],
  [/^\.config\/Code\//, ['vscode-copilot-chat']],
  [/^\.config\/Cursor\/User\/workspaceStorage\/[^/]+\/chatSessions\//, ['vscode-copilot-chat']],
  [/^\.config\/Cursor\/User\/(?:globalStorage\/(?:state\.vscdb|storage\.json)|workspaceStorage\/[^/]+\/(?:state\.vscdb|workspace\.json))$/, ['cursor', 'vscode-copilot-chat']],
  [/^\.config\/Cursor\//, ['cursor']],
];

let T: string;
let cli: CliRun[];
let manifest: ManifestRow[];
let rows: Row[];
let dups: { dropped: Row }[];
let sessions: Session[];

beforeAll(async () => {
  T = tempDir('editors-mixed');
  for (const [user, build] of Object.entries(HOMES)) for (const b of build) b(join(T, 'img/home', user));
  const zip = join(T, 'c.zip');
  const out = join(T, 'out');
  cli = [await runCli(['collect', '--root', join(T, 'img'), '--agent', 'vscode-copilot-chat', '--agent', 'cursor', '--agent', 'codex-cli', '--out', zip])];
  cli.push(await runCli(['analyze', zip, '--out', out]));
  manifest = (await manifestOf(zip)).rows;
  rows = readJsonl<Row>(join(out, 'timeline.jsonl'));
  dups = readJsonl(join(out, 'duplicates.jsonl'));
  sessions = readJsonl<Session>(join(out, 'sessions.jsonl'));
}, 600_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

/** A row as it would read in another home: the user and its home folder taken out. */
const norm = (r: Row) => JSON.stringify({ ...r, user: '', source_file: String(r.source_file).replace(/^homes\/[^/]+\//, '') });
const of = (users: string[], agent: string) => rows.filter((r) => users.includes(String(r.user)) && r.agent === agent).map(norm).sort();

describe('VS Code, Cursor and the Codex extension in one home', () => {
  it('every command succeeds without a stack trace', () => {
    for (const r of cli) {
      expect(r.code, r.stderr).toBe(0);
      expect(stackTraceLines(r.stderr)).toEqual([]);
    }
  });

  it('gives each file to the catalogs of its editor folder: one manifest row, naming both when two claim it', () => {
    const mine = manifest.filter((m) => m.user === 'mixed');
    const rels = mine.map((m) => m.rel);
    expect(new Set(rels).size).toBe(rels.length);
    for (const m of mine) {
      const want = CLAIMS.find(([re]) => re.test(m.rel))?.[1];
      expect([m.rel, m.agents ?? [m.agent]]).toEqual([m.rel, want]);
      expect(want).toContain(m.agent);
    }
    // The Codex extension's storage in each editor folder, and the shared Cursor stores, are there.
    for (const d of EXT_DIRS) expect(rels.filter((r) => r.startsWith(`${d}/`))).toHaveLength(1);
    expect(mine.filter((m) => (m.agents ?? []).length === 2).map((m) => m.rel.replace(CW, '<ws>'))).toEqual(
      expect.arrayContaining(['.config/Cursor/User/globalStorage/state.vscdb', '<ws>/state.vscdb', '<ws>/workspace.json']),
    );
    // Every file of a single-agent home is in the shared one, under the same catalogs.
    const shared = new Set(rels);
    for (const m of manifest.filter((x) => x.user !== 'mixed')) expect([m.rel, shared.has(m.rel)]).toEqual([m.rel, true]);
  });

  it('reads each file for the agents that claim it only: rows of an agent come from its own files', () => {
    const mine = rows.filter((r) => r.user === 'mixed');
    const claims = new Map(manifest.filter((m) => m.user === 'mixed').map((m) => [`homes/mixed/${m.rel}`, m.agents ?? [m.agent]]));
    for (const r of mine) expect([r.agent, r.source_file, claims.get(String(r.source_file))?.includes(String(r.agent))]).toEqual([r.agent, r.source_file, true]);
    expect(new Set(mine.map((r) => r.agent))).toEqual(new Set(['vscode-copilot-chat', 'cursor', 'codex-cli']));
  });

  it('gives each agent exactly the rows the separate homes give: nothing lost, nothing twice', () => {
    for (const agent of AGENTS) {
      const together = of(['mixed'], agent);
      expect(together.length, agent).toBeGreaterThan(0);
      expect(together, agent).toEqual(of(ALONE, agent));
      const dropped = (users: string[]) => dups.filter((d) => users.includes(String(d.dropped.user)) && d.dropped.agent === agent).map((d) => norm(d.dropped)).sort();
      expect(dropped(['mixed']), agent).toEqual(dropped(ALONE));
    }
    expect(dups.filter((d) => d.dropped.user === 'mixed').length).toBeGreaterThan(0);
    // No agent reads another's data: the alone homes give no row of the agents they lack.
    expect(rows.filter((r) => r.user === 'vs' && r.agent !== 'vscode-copilot-chat')).toEqual([]);
    expect(rows.filter((r) => r.user === 'cx' && r.agent !== 'codex-cli')).toEqual([]);
  });

  it("keeps Copilot Chat's session in Cursor's folder as a Copilot Chat session whose client is Cursor, its prompt once", () => {
    const s = sessions.filter((x) => x.user === 'mixed' && x.session_id === IN_CURSOR);
    expect(s.map((x) => [x.agent, x.client])).toEqual([['vscode-copilot-chat', 'Cursor']]);
    const prompts = rows.filter((r) => r.user === 'mixed' && r.turn_type === 'user' && r.text === 'list the routes of this app');
    expect(prompts.map((r) => [r.agent, r.session_id])).toEqual([['vscode-copilot-chat', IN_CURSOR]]);
    expect(rows.filter((r) => r.user === 'mixed' && r.agent === 'cursor' && r.session_id === IN_CURSOR)).toEqual([]);
  });

  it('names every session once per home, under one agent', () => {
    const mine = sessions.filter((x) => x.user === 'mixed');
    const ids = mine.map((x) => x.session_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const agent of AGENTS) {
      const ofAgent = (users: string[]) => sessions.filter((x) => users.includes(x.user) && x.agent === agent).map((x) => x.session_id).sort();
      expect(ofAgent(['mixed']), agent).toEqual(ofAgent(ALONE));
    }
  });
});
