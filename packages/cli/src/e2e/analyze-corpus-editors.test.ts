import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ManifestRow } from '@aitrail/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// The editor agents over the real corpus (shared/corpus/real, PROVENANCE.md), read in place as
// five homes (the collector only reads them; nothing is copied into the project): VS Code Copilot
// Chat 0.33.2 and 0.30.3 (aholicg/Debian, harrybirdnz/dev), cursor-agent 2025.10.21
// (brow/dotfiles), Cursor transcripts and settings (anuragabhay/my-dev-workspace), a Linux Cursor
// state.vscdb in rollback-journal mode with its .backup (ItIsCiprian/dotfiles-linux). The parser
// tests account for each file; this checks what an investigator reads after dedup: every file
// collected under its agent, every prompt and reply once, no key of the files in any output.

const CORPUS = join(REPO, '../shared/corpus/real');
const HOMES = ['aholicg__Debian', 'harrybirdnz__dev', 'brow__dotfiles', 'anuragabhay__my-dev-workspace', 'ItIsCiprian__dotfiles-linux'];
const present = HOMES.every((h) => existsSync(join(CORPUS, h)));
// biome-ignore lint/suspicious/noExplicitAny: the real files are read as loosely typed JSON, checked by the assertions
type J = Record<string, any>;
type Row = { user: string; agent: string; session_id: string; turn_type: string; text: string; source_file: string; tag: string };

function walk(d: string): string[] {
  return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
}
/** The editor agents' files of one corpus home, home-relative. */
const editorFiles = (h: string) =>
  ['.config/Code', '.config/Cursor', '.cursor'].filter((d) => existsSync(join(CORPUS, h, d))).flatMap((d) => walk(join(CORPUS, h, d)).map((f) => relative(join(CORPUS, h), f)));
const count = <T>(xs: T[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>());

let T: string;
let cli: CliRun[];
let manifest: ManifestRow[];
let rows: Row[];
let dups: { dropped: Row }[];
let sessions: { user: string; agent: string; session_id: string }[];
let outputs: string;

beforeAll(async () => {
  if (!present) return;
  T = tempDir('corpus-editors');
  const zip = join(T, 'c.zip');
  const out = join(T, 'out');
  cli = [await runCli(['collect', ...HOMES.flatMap((h) => ['--home', join(CORPUS, h)]), '--agent', 'vscode-copilot-chat', '--agent', 'cursor', '--out', zip])];
  cli.push(await runCli(['analyze', zip, '--out', out]));
  manifest = (await manifestOf(zip)).rows;
  rows = readJsonl<Row>(join(out, 'timeline.jsonl'));
  dups = readJsonl(join(out, 'duplicates.jsonl'));
  sessions = readJsonl(join(out, 'sessions.jsonl'));
  outputs = [...cli.flatMap((c) => [c.stdout, c.stderr]), ...readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))].join('\n');
}, 600_000);
afterAll(() => T && rmSync(T, { recursive: true, force: true }));

describe.skipIf(!present)('the editor agents over the real corpus', () => {
  it('every command succeeds without a stack trace; no parse warning, no unknown record', () => {
    for (const r of cli) {
      expect(r.code, r.stderr).toBe(0);
      expect(stackTraceLines(r.stderr)).toEqual([]);
    }
    expect(rows.filter((r) => r.tag === 'bad_line' || r.tag === 'unreadable')).toEqual([]);
  });

  it('collects every editor file of the five homes under its agent (Code: Copilot Chat; Cursor and ~/.cursor: Cursor)', () => {
    for (const h of HOMES) {
      const got = new Map(manifest.filter((m) => m.user === h).map((m) => [m.rel, m]));
      const files = editorFiles(h);
      expect(files.length, h).toBeGreaterThan(0);
      for (const rel of files) {
        const m = got.get(rel);
        expect([rel, m?.status, m?.agent]).toEqual([rel, 'collected', rel.startsWith('.config/Code/') ? 'vscode-copilot-chat' : 'cursor']);
      }
    }
  });

  it('VS Code: every request of every session file is one user row of its session, every reply part in its assistant rows', () => {
    let requests = 0;
    for (const h of ['aholicg__Debian', 'harrybirdnz__dev']) {
      for (const rel of editorFiles(h).filter((r) => /\/(?:chatSessions|emptyWindowChatSessions)\/[^/]+\.json$/.test(r))) {
        const s = JSON.parse(readFileSync(join(CORPUS, h, rel), 'utf8')) as J;
        const mine = rows.filter((r) => r.user === h && r.session_id === s.sessionId);
        expect(mine.filter((r) => r.tag === 'session_start'), rel).toHaveLength(1);
        const users = count(mine.filter((r) => r.turn_type === 'user').map((r) => r.text));
        expect(users).toEqual(count(s.requests.map((q: J) => q.message.text as string)));
        const replies = mine.filter((r) => r.turn_type === 'assistant').map((r) => r.text);
        for (const q of s.requests as J[]) {
          requests++;
          for (const p of q.response as J[]) {
            // Short Markdown pieces (", ", "\n```\n") recur everywhere; a long one is in exactly one row.
            if (p.kind !== undefined || p.value.trim().length < 40) continue;
            expect(replies.filter((t) => t.includes(p.value.trim())), p.value.slice(0, 60)).toHaveLength(1);
          }
        }
      }
    }
    expect(requests).toBe(3);
    // The session whose file is gone survives from the workspace index and its edit state.
    const gone = sessions.find((s) => s.session_id === '60b140d3-7125-496b-b31c-540b0b9c4ba7');
    expect(gone?.agent).toBe('vscode-copilot-chat');
    expect(rows.find((r) => r.session_id === gone?.session_id && r.tag === 'session_metadata')?.text).toMatch(/ file=missing$/);
  });

  it('Cursor: every typed query of the .txt transcripts once, the CLI prompt once (its prompt-history copy dropped)', () => {
    const h = 'anuragabhay__my-dev-workspace';
    const want: string[] = [];
    const got: string[] = [];
    for (const rel of editorFiles(h).filter((r) => r.includes('/agent-transcripts/'))) {
      const sid = rel.split('/').pop()!.replace(/\.txt$/, '');
      for (const m of readFileSync(join(CORPUS, h, rel), 'utf8').matchAll(/<user_query>\n([\s\S]*?)\n<\/user_query>/g)) if (m[1].trim()) want.push(`${sid} ${m[1]}`);
      got.push(...rows.filter((r) => r.user === h && r.session_id === sid && r.turn_type === 'user').map((r) => `${sid} ${r.text}`));
    }
    expect(want.length).toBeGreaterThan(50);
    expect(count(got)).toEqual(count(want));
    const b = 'brow__dotfiles';
    const prompts = JSON.parse(readFileSync(join(CORPUS, b, '.cursor/prompt_history.json'), 'utf8')) as string[];
    for (const p of prompts) {
      expect(rows.filter((r) => r.user === b && r.turn_type === 'user' && r.text === p).map((r) => r.source_file.split('/').pop())).toEqual(['store.db']);
      expect(dups.filter((d) => d.dropped.user === b && d.dropped.text === p).map((d) => d.dropped.source_file.split('/').pop())).toEqual(['prompt_history.json']);
    }
  });

  it('Cursor on Linux: one session per composer record; every row of the .backup copy dropped beside its database row', () => {
    const h = 'ItIsCiprian__dotfiles-linux';
    const db = readFileSync(join(CORPUS, h, '.config/Cursor/User/globalStorage/state.vscdb')).toString('latin1');
    const composers = new Set([...db.matchAll(/composerData:([0-9a-f-]{36})/g)].map((m) => m[1]));
    expect(composers.size).toBeGreaterThan(300);
    const mine = sessions.filter((s) => s.user === h && composers.has(s.session_id));
    expect(mine).toHaveLength(composers.size);
    expect(rows.filter((r) => r.user === h && r.source_file.endsWith('.backup'))).toEqual([]);
    expect(dups.filter((d) => d.dropped.user === h && d.dropped.source_file.endsWith('state.vscdb.backup')).length).toBeGreaterThan(300);
  });

  it('prints no key of the files: the retrieval index key of the Cursor databases, the MCP env values', () => {
    const db = readFileSync(join(CORPUS, 'ItIsCiprian__dotfiles-linux/.config/Cursor/User/globalStorage/state.vscdb')).toString('latin1');
    const keys = new Set([...db.matchAll(/PathEncryptionKey":"([^"]{16,})"/gi)].map((m) => m[1]));
    const mcp = JSON.parse(readFileSync(join(CORPUS, 'brow__dotfiles/.cursor/mcp.json'), 'utf8')) as J;
    const env = Object.values(mcp.mcpServers as J).flatMap((s: J) => Object.values(s.env ?? {}) as string[]);
    expect([keys.size, env.length]).toEqual([1, 2]);
    for (const v of [...keys, ...env]) expect(outputs.includes(v), v.slice(0, 4)).toBe(false);
  });
});
