// The generator's correctness (not its speed): determinism, the seed-001 event mix, valid lines,
// and a store whose rows live only in the WAL.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without type declarations
import { generate, parseSize } from './generate.mjs';

interface SessionInfo {
  user: string;
  id: string;
  rel: string;
  lines: number;
  cuts: number[];
  stringified: boolean;
}
interface Corpus {
  sessions: SessionInfo[];
  counts: Record<string, number>;
  bytes: number;
}
type Db = { prepare(sql: string): { get(): unknown; all(): unknown[] }; close(): void };
const Database = createRequire(join(__dirname, '..', 'packages', 'parsers', 'package.json'))('better-sqlite3') as new (path: string, opts?: object) => Db;
// The YAML parser the collector's hints use (a dependency of @aitrail/collector, not of the root).
const YAML = createRequire(join(__dirname, '..', 'packages', 'collector', 'package.json'))('yaml') as { parse(text: string): Record<string, unknown> };

// Seed 001's counts for the types with at least 100 occurrences in 128,356 events.
const SEED: Record<string, number> = {
  'tool.execution_start': 29907,
  'tool.execution_complete': 29894,
  'assistant.message': 19045,
  'assistant.turn_start': 14708,
  'assistant.turn_end': 14688,
  'hook.start': 6700,
  'hook.end': 6700,
  'user.message': 2249,
  'system.message': 1480,
};
const SEED_TOTAL = 128356;

const work = mkdtempSync(join(tmpdir(), 'aitrail-gen-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function digestTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

describe('generate', () => {
  let corpus: Corpus;
  const big = join(work, 'big');
  beforeAll(() => {
    corpus = generate({ out: big, size: parseSize('40m'), seed: 7 });
  });

  it('writes the same bytes for the same seed, and other bytes for another seed', () => {
    const a = join(work, 'a');
    const b = join(work, 'b');
    const c = join(work, 'c');
    generate({ out: a, size: parseSize('4m'), seed: 3, homes: 2 });
    generate({ out: b, size: parseSize('4m'), seed: 3, homes: 2 });
    generate({ out: c, size: parseSize('4m'), seed: 4, homes: 2 });
    const da = digestTree(a);
    expect(da.size).toBeGreaterThan(10);
    expect([...digestTree(b)]).toEqual([...da]);
    const dc = digestTree(c);
    expect([...dc].filter(([k, v]) => k.endsWith('events.jsonl') && [...da.values()].includes(v))).toEqual([]);
  });

  it('reaches the requested size within one session', () => {
    expect(corpus.bytes).toBeGreaterThanOrEqual(parseSize('40m'));
    expect(corpus.bytes).toBeLessThan(parseSize('40m') * 1.05);
  });

  it('follows the event mix of seed 001', () => {
    const total = Object.values(corpus.counts).reduce((x, y) => x + y, 0);
    for (const [type, n] of Object.entries(SEED)) {
      const want = n / SEED_TOTAL;
      const got = (corpus.counts[type] ?? 0) / total;
      // Rarer types vary more between small corpora (one system prompt per session start).
      const tolerance = want >= 0.05 ? 0.15 : 0.35;
      expect(Math.abs(got - want) / want, `${type}: ${got} vs ${want}`).toBeLessThan(tolerance);
    }
    expect(corpus.counts['session.start']).toBe(corpus.sessions.length);
  });

  it('writes valid JSON on every line but the cut ones, and some sessions stringified', () => {
    let cut = 0;
    for (const s of corpus.sessions) {
      const text = readFileSync(join(big, s.user, s.rel), 'utf8');
      const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
      expect(lines.length).toBe(s.lines);
      lines.forEach((line, i) => {
        if (s.cuts.includes(i + 1)) {
          cut += 1;
          expect(() => JSON.parse(line)).toThrow();
          return;
        }
        const ev = JSON.parse(line);
        expect(Object.keys(ev)).toEqual(['id', 'parentId', 'timestamp', 'type', 'data']);
        if (s.stringified) for (const v of Object.values(ev.data)) expect(v === null || typeof v === 'string').toBe(true);
      });
    }
    expect(cut).toBeGreaterThan(0);
    const share = corpus.sessions.filter((s) => s.stringified).length / corpus.sessions.length;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.4);
  });

  it('writes a workspace.yaml that parses, whatever the generated name holds', () => {
    for (const s of corpus.sessions) {
      const doc = YAML.parse(readFileSync(join(big, s.user, s.rel, '..', 'workspace.yaml'), 'utf8'));
      expect(doc.id).toBe(s.id);
      expect(typeof doc.name, `${s.id} name`).toBe('string');
      expect(typeof doc.cwd).toBe('string');
      expect(typeof doc.summary_count).toBe('number');
      expect(doc.mc_task_id === null || typeof doc.mc_task_id === 'string').toBe(true);
    }
  });

  it('leaves the store rows in the WAL only', () => {
    const store = join(big, 'alice', '.copilot', 'session-store.db');
    expect(statSync(store).size).toBe(4096);
    expect(statSync(`${store}-wal`).size).toBeGreaterThan(4096);
    const alone = mkdtempSync(join(work, 'alone-'));
    copyFileSync(store, join(alone, 'x.db'));
    const db1 = new Database(join(alone, 'x.db'), { readonly: true });
    expect(db1.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([]);
    db1.close();
    const withWal = mkdtempSync(join(work, 'wal-'));
    for (const ext of ['', '-wal', '-shm']) copyFileSync(store + ext, join(withWal, `x.db${ext}`));
    const db2 = new Database(join(withWal, 'x.db'), { readonly: true });
    const turns = db2.prepare('SELECT count(*) AS n FROM turns').get() as { n: number };
    const sessions = db2.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number };
    db2.close();
    expect(turns.n).toBeGreaterThanOrEqual(corpus.counts['user.message']);
    expect(sessions.n).toBeGreaterThan(corpus.sessions.length);
  });
});
