import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, GENERATED, generate, HOSTILE_HOMES, manifestOf, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';
import { sharedCollect } from './test-helpers/shared-run.js';

// Hostile parser inputs through the real dispatch: each case is a home with the hostile file at
// the path a copilot-cli parser wants; `aitrail collect` archives it and `aitrail analyze` parses
// it, both as child processes with a 512 MB heap cap unless a case says otherwise
// (fixtures/hostile/README.md lists the cases).

interface TimelineRow {
  user: string;
  source_file: string;
  source_line: number | null;
  turn_type: string;
  text: string;
  session_id: string;
}

interface Outcome {
  T: string;
  collect: Awaited<ReturnType<typeof runCli>>;
  analyze: Awaited<ReturnType<typeof runCli>>;
  rows: TimelineRow[];
  inventory: string;
  collectedRels: Map<string, string[]>;
}

const dirs: string[] = [];

async function collectAndAnalyze(label: string, homes: string[], timeoutMs = 120_000, analyzeOpts: CliOptions = {}): Promise<Outcome> {
  const T = tempDir(`parsers-${label}`);
  dirs.push(T);
  mkdirSync(join(T, 'tmp'));
  // The collection is shared with other test files that collect the same home the same way.
  const shared = await sharedCollect(homes, ['--agent', 'copilot-cli']);
  const { zip, run: collect } = shared;
  const analyze = await runCli(['analyze', zip, '--out', join(T, 'out')], { timeoutMs, ...analyzeOpts, env: { TMPDIR: join(T, 'tmp'), ...analyzeOpts.env } });
  const tl = join(T, 'out', 'timeline.jsonl');
  const rows: TimelineRow[] = existsSync(tl)
    ? readFileSync(tl, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const inv = join(T, 'out', 'inventory.json');
  const collectedRels = new Map<string, string[]>();
  if (existsSync(zip)) {
    for (const r of (await manifestOf(zip)).rows) if (r.status === 'collected') collectedRels.set(r.user, [...(collectedRels.get(r.user) ?? []), r.rel]);
  }
  return { T, collect, analyze, rows, inventory: existsSync(inv) ? readFileSync(inv, 'utf8') : '', collectedRels };
}

function expectFinished(o: Outcome): void {
  for (const r of [o.collect, o.analyze]) {
    expect(r.timedOut, r.stderr.slice(-1500)).toBe(false);
    expect(r.code, r.stderr.slice(-1500)).toBe(0);
    expect(stackTraceLines(r.stderr), r.stderr.slice(-1500)).toEqual([]);
  }
  // The private temp folder (SQLite copies, spilled runs) is gone.
  expect(readdirSync(join(o.T, 'tmp'))).toEqual([]);
}

const rowsOf = (o: Outcome, user: string, file?: string) => o.rows.filter((r) => r.user === user && (file === undefined || r.source_file.endsWith(file)));

beforeAll(() => generate('homes'), 300_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('hostile parser inputs, collected and analyzed', () => {
  const SMALL = ['not-object', 'jsonc-trailing', 'yaml-bomb', 'zero-byte'].map((h) => join(HOSTILE_HOMES, h));
  const GEN = ['deep-nesting', 'random-bytes', 'sqlite-truncated', 'sqlite-corrupt', 'wal-orphan'].map((h) => join(GENERATED, 'homes', h));
  let o: Outcome;
  beforeAll(async () => {
    o = await collectAndAnalyze('small', [...SMALL, ...GEN]);
  }, 240_000);

  it('collects and analyzes all nine hostile homes in one run: exit 0, no stack trace, temp folder removed', () => {
    expectFinished(o);
    expect([...o.collectedRels.keys()].sort()).toEqual(['deep-nesting', 'jsonc-trailing', 'not-object', 'random-bytes', 'sqlite-corrupt', 'sqlite-truncated', 'wal-orphan', 'yaml-bomb', 'zero-byte']);
  });

  it('accounts for every hostile non-empty file a parser wants: a row from it, or a warning naming it', () => {
    const wanted = /(events\.jsonl|workspace\.yaml|index\.json|session-store\.db|settings\.json|command-history-state\.json|permissions-config\.json|sidebar-sessions-state\/.*\.json)$/;
    // Process logs are left out: their parser picks the lines it knows and skips the rest by design.
    for (const [user, rels] of o.collectedRels) {
      for (const rel of rels.filter((r) => wanted.test(r))) {
        if (user === 'zero-byte' && rel.endsWith('events.jsonl')) continue; // line-based and empty: no line, nothing to say
        // A valid shape with nothing in it to report: one location, 100,000 levels deep, no grants.
        if (user === 'deep-nesting' && rel.endsWith('permissions-config.json')) continue;
        const named = rowsOf(o, user).some((r) => r.source_file.endsWith(rel)) || o.inventory.includes(rel);
        expect(named, `${user}: ${rel}`).toBe(true);
      }
    }
  });

  it('not-object: each non-object events line is a bad line with its number, and the object line after them parses', () => {
    const ev = rowsOf(o, 'not-object', 'events.jsonl');
    expect(ev.filter((r) => r.text.startsWith('parser: unparseable line')).map((r) => r.source_line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ev.filter((r) => r.turn_type === 'user').map((r) => [r.source_line, r.text])).toEqual([[7, 'the object line after six that are not']]);
    for (const f of ['workspace.yaml', 'settings.json', 'command-history-state.json', 'permissions-config.json']) expect(rowsOf(o, 'not-object', f).length, f).toBeGreaterThanOrEqual(1);
  });

  it('deep-nesting: 100,000 levels in every file give rows or unreadable rows, never a stack overflow of the process', () => {
    const ev = rowsOf(o, 'deep-nesting', 'events.jsonl');
    expect(ev.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['deep', 'fix the failing test']);
    expect(ev.some((r) => r.source_line === 2)).toBe(true);
    for (const f of ['workspace.yaml', 'settings.json', 'command-history-state.json']) expect(rowsOf(o, 'deep-nesting', f).length, f).toBeGreaterThanOrEqual(1);
  });

  it('random-bytes: every line of the random events.jsonl is a bad line, numbered; the store is unreadable', () => {
    const ev = rowsOf(o, 'random-bytes', 'events.jsonl');
    const bad = ev.filter((r) => r.text.startsWith('parser: unparseable line'));
    expect(bad.length).toBeGreaterThan(50);
    expect(bad.length).toBe(ev.length);
    const lines = bad.map((r) => r.source_line as number);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(new Set(lines).size).toBe(lines.length);
    expect(rowsOf(o, 'random-bytes', 'session-store.db').map((r) => r.text)).toEqual([expect.stringMatching(/^parser: unreadable file/)]);
  });

  it('yaml-bomb: the alias bomb is not expanded (no huge row, bounded heap)', () => {
    const ws = rowsOf(o, 'yaml-bomb', 'workspace.yaml');
    for (const r of ws) expect(r.text.length).toBeLessThan(10_000);
    expect(o.rows.every((r) => r.text.length < 2_000_000)).toBe(true);
  });

  it('jsonc-trailing: settings.json with comments and trailing commas is read (the seed calls it JSONC)', () => {
    const texts = rowsOf(o, 'jsonc-trailing', 'settings.json').map((r) => r.text);
    expect(texts.some((t) => t.includes('https://registry.example.org'))).toBe(true);
    expect(texts.some((t) => t.includes('https://mirror.example.org'))).toBe(true);
    expect(rowsOf(o, 'jsonc-trailing', 'permissions-config.json').length).toBeGreaterThanOrEqual(1);
  });

  it('sqlite-truncated and sqlite-corrupt: one unreadable row each, saying why', () => {
    for (const u of ['sqlite-truncated', 'sqlite-corrupt']) {
      expect(rowsOf(o, u, 'session-store.db').map((r) => r.text), u).toEqual([expect.stringMatching(/^parser: unreadable file \(.*(SQLite|database)/)]);
    }
  });

  // The unreadable row once named the analyst's private temp copy (…/aitrail-analyze-XXXXXX/
  // m-XXXXXX/session-store.db), so the timeline depended on where and when it was produced.
  it('an unreadable SQLite row names the collected file, not the analyst temp copy', () => {
    for (const u of ['sqlite-truncated', 'sqlite-corrupt', 'zero-byte']) {
      const rows = rowsOf(o, u, 'session-store.db');
      expect(rows.length, u).toBeGreaterThanOrEqual(1);
      for (const r of rows) {
        expect(r.text, u).not.toMatch(/aitrail-analyze-/);
        expect(r.text, u).toContain('.copilot/session-store.db');
      }
    }
  });

  it('zero-byte: every empty wanted file is read without a crash; the empty config files each say so', () => {
    for (const f of ['workspace.yaml', 'session-store.db', 'command-history-state.json', 'index.json']) expect(rowsOf(o, 'zero-byte', f).length, f).toBeGreaterThanOrEqual(1);
    expect(rowsOf(o, 'zero-byte', 'events.jsonl')).toEqual([]);
  });

  it('wal-orphan: a WAL without its database is collected with its -shm, never crashes the analysis, and is named in a warning', () => {
    expect(o.collectedRels.get('wal-orphan')?.sort()).toEqual(['.copilot/session-store.db-shm', '.copilot/session-store.db-wal']);
    expect(o.inventory).toContain('wal-orphan');
    expect(o.inventory).toContain('a SQLite -wal without its database (.copilot/session-store.db was not collected)');
  });
});

describe('huge parser inputs, collected and analyzed', () => {
  it('a 64 MB single line at the default heap cap (256 MB, no heap flag at all): parsed whole into one row, and the next line still parses', async () => {
    const o = await collectAndAnalyze('long-line', [join(GENERATED, 'homes/long-line')], 180_000, { maxOldSpaceMb: 0, env: { AITRAIL_MAX_HEAP_MB: '', NODE_OPTIONS: '' } });
    expectFinished(o);
    const ev = rowsOf(o, 'long-line', 'events.jsonl');
    expect(ev.find((r) => r.source_line === 2)?.text).toBe('fix the failing test');
    const first = ev.filter((r) => r.source_line === 1);
    expect(first.map((r) => [r.turn_type, r.text.length, r.text.slice(0, 24)])).toEqual([['user', 64 << 20, 'long prompt long prompt ']]);
  }, 240_000);

  it('a 16 MB prompt in two copies of one session under a 64 MB heap: one row kept, and timeline.sqlite holds the duplicate whole (its duplicates.jsonl line is 48 MB)', async () => {
    const o = await collectAndAnalyze('long-line-copy', [join(GENERATED, 'homes/long-line-copy')], 120_000, { env: { AITRAIL_MAX_HEAP_MB: '64' } });
    expectFinished(o);
    const prompts = rowsOf(o, 'long-line-copy').filter((r) => r.text.startsWith('copied prompt'));
    expect(prompts.map((r) => [r.turn_type, r.text.length])).toEqual([['user', 14 * Math.floor((16 << 20) / 14)]]);
    const lines = readFileSync(join(o.T, 'out', 'duplicates.jsonl'), 'utf8').split('\n').filter(Boolean);
    const want = lines.map((l) => JSON.parse(l) as Record<string, { source_file: string; text: string } | null>);
    expect(want.some((d) => d.dropped?.text.startsWith('copied prompt') && d.kept?.text === d.dropped.text)).toBe(true);
    const db = new Database(join(o.T, 'out', 'timeline.sqlite'), { readonly: true });
    try {
      const got = db.prepare('SELECT source_file, kept_source_file, dropped, kept, paired_with FROM duplicates ORDER BY id').all() as Record<string, string | null>[];
      expect(got.map((g) => [g.source_file, g.kept_source_file])).toEqual(want.map((d) => [d.dropped?.source_file, d.kept?.source_file ?? null]));
      // Each row's JSON whole, as JSON.stringify gives it.
      for (const [i, d] of want.entries()) {
        expect(got[i].dropped === JSON.stringify(d.dropped) && got[i].kept === (d.kept ? JSON.stringify(d.kept) : null)).toBe(true);
        expect(got[i].paired_with).toBe(d.paired_with ? JSON.stringify(d.paired_with) : null);
      }
    } finally {
      db.close();
    }
  }, 180_000);

  it('ten million short lines: the bad line at every millionth and the prompt on line 10,000,001 are numbered right', async () => {
    const o = await collectAndAnalyze('many-lines', [join(GENERATED, 'homes/many-lines')], 240_000);
    expectFinished(o);
    const ev = rowsOf(o, 'many-lines', 'events.jsonl');
    expect(ev.filter((r) => r.text.startsWith('parser: unparseable line')).map((r) => r.source_line)).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 1_000_000));
    expect(ev.filter((r) => r.turn_type === 'user').map((r) => [r.source_line, r.text])).toEqual([[10_000_001, 'fix the failing test']]);
    expect(ev).toHaveLength(11);
  }, 300_000);
});

// Ten million lines of `{}` (each a bad-line row) are a bench row, not a test: `pnpm bench
// --only rows` measures their time, peak memory and temporary files (docs/performance.md).

