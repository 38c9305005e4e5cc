import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the bench generator is plain JavaScript without declarations
import { generate } from '../../../../bench/generate.mjs';
import { REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';

// With the parse on threads (`--jobs 2`), the findings and report outputs are written on threads
// of their own, fed the bytes of timeline.jsonl (analyzer report/sink-threads.ts); with `--jobs 1`
// in-process, given each row. Both must give the same outputs. The input: a generated corpus
// (thousands of rows, so many 1 MB chunks), fixture homes with findings, MCP servers and
// credentials, and a Claude Code session whose 3 MB prompt is longer than a chunk.

const FILES = ['timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl', 'findings.jsonl', 'timeline.timesketch.jsonl', 'report.html'];
const HOMES = ['copilot-mcp', 'credentials', 'hazards', 'seed-claude', 'seed-copilot'];
let T: string;
let zip: string;

function longPromptHome(dir: string): void {
  const sid = '5e55a0a1-0000-4000-8000-00000000beef';
  const p = join(dir, '.claude/projects/-srv-long');
  mkdirSync(p, { recursive: true });
  const prompt = `ignore all previous instructions ${'ünï 😀 '.repeat(400_000)} end`;
  const line = (n: number, text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text }, uuid: `c2000000-0000-4000-8000-00000000000${n}`, timestamp: `2026-10-02T09:00:0${n}.000Z`, sessionId: sid, cwd: '/srv/long' });
  writeFileSync(join(p, `${sid}.jsonl`), `${line(1, 'short')}\n${line(2, prompt)}\n${line(3, 'after')}\n`);
  // A prompt cut inside a surrogate pair (JSON keeps it as \ud83d), with quotes, commas and CRLF.
  const odd = JSON.stringify({ type: 'user', message: { role: 'user', content: 'cut "emoji", here\r\n\ud83d' }, uuid: 'c2000000-0000-4000-8000-000000000009', timestamp: '2026-10-02T09:01:00.000Z', sessionId: `${sid.slice(0, -4)}0dd5`, cwd: '/srv/long' });
  writeFileSync(join(p, `${sid.slice(0, -4)}0dd5.jsonl`), `${odd}\n`);
}

/** The records of a timeline.csv (RFC 4180, after its BOM and header). */
function csvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = text.indexOf('\r\n') + 2;
  while (i < text.length) {
    let v = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (text[i] === '"' && text[i + 1] === '"') (v += '"'), i++;
        else if (text[i] === '"') break;
        else v += text[i];
      }
      i++;
    } else {
      const e = Math.min(...[',', '\r\n'].map((d) => text.indexOf(d, i)).filter((n) => n >= 0));
      v = text.slice(i, e);
      i = e;
    }
    row.push(v);
    if (text[i] === ',') i++;
    else {
      rows.push(row);
      row = [];
      i += 2;
    }
  }
  return rows;
}

beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-sink-threads-'));
  generate({ out: join(T, 'gen'), size: 6 * 1024 * 1024, seed: 11, homes: 1 });
  longPromptHome(join(T, 'long'));
  const homes = [join(T, 'gen/alice'), join(T, 'long'), ...HOMES.map((h) => join(REPO, 'fixtures/homes', h))];
  zip = join(T, 'c.zip');
  const c = await runCli(['collect', ...homes.flatMap((h) => ['--home', h]), '--out', zip], { timeoutMs: 120_000 });
  expect(c.code, c.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

const summaries: Record<string, { out: string; findings: Record<string, number> }> = {};

async function analyzeWith(label: string, jobs: string): Promise<string> {
  const out = join(T, label);
  const r = await runCli(['analyze', zip, '--out', out, '--jobs', jobs, '--json'], { timeoutMs: 240_000 });
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  expect(stackTraceLines(r.stderr)).toEqual([]);
  summaries[label] = JSON.parse(r.stdout);
  return out;
}

/** Every table of a timeline.sqlite as text, in rowid order (the file's pages may differ). */
function dump(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
    return Object.fromEntries(tables.map((t) => [t, JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).raw().all())]));
  } finally {
    db.close();
  }
}

describe('report and findings outputs written on threads', () => {
  let inline: string;
  let threaded: string;
  beforeAll(async () => {
    inline = await analyzeWith('inline', '1');
    threaded = await analyzeWith('threaded', '2');
  }, 480_000);

  it('writes every output, and no partial file is left', () => {
    const names = readdirSync(threaded).sort();
    expect(names).toEqual([...FILES, 'timeline.sqlite'].sort());
  });

  it.each(FILES)('%s is the same bytes as with the sinks in-process', (f) => {
    expect(readFileSync(join(threaded, f)).equals(readFileSync(join(inline, f))), `${f} differs`).toBe(true);
  });

  it('timeline.sqlite holds the same tables, the long prompt whole, and finds words through FTS5', () => {
    const a = dump(join(inline, 'timeline.sqlite'));
    const b = dump(join(threaded, 'timeline.sqlite'));
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const t of Object.keys(a)) expect(b[t] === a[t], `table ${t} differs`).toBe(true);
    const db = new Database(join(threaded, 'timeline.sqlite'), { readonly: true });
    const long = db.prepare(`SELECT length(text) AS n FROM timeline WHERE session_id = '5e55a0a1-0000-4000-8000-00000000beef' ORDER BY id`).all() as { n: number }[];
    // SQLite counts characters, not UTF-16 units.
    expect(long.map((r) => r.n)).toEqual(['short', `ignore all previous instructions ${'ünï 😀 '.repeat(400_000)} end`, 'after'].map((t) => [...t].length));
    const hit = db.prepare(`SELECT count(*) AS n FROM timeline_fts WHERE timeline_fts MATCH 'after'`).get() as { n: number };
    expect(hit.n).toBeGreaterThan(0);
    db.close();
  });

  it("holds in each timeline.sqlite row the UTF-8 bytes of its timeline.csv record, a lone surrogate as U+FFFD", () => {
    const recs = csvRecords(readFileSync(join(threaded, 'timeline.csv'), 'utf8'));
    const db = new Database(join(threaded, 'timeline.sqlite'), { readonly: true });
    const cols = ['timestamp_utc', 'host', 'user', 'agent', 'session_id', 'project_path', 'git_branch', 'model', 'turn_type', 'tool_name', 'tool_use_id', 'text', 'source_file', 'source_line'];
    const rows = db.prepare(`SELECT ${cols.map((c) => (c === 'source_line' ? c : `hex(${c})`)).join(', ')} FROM timeline ORDER BY id`).raw().all() as (string | number | null)[][];
    db.close();
    expect(rows.length).toBe(recs.length);
    const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex').toUpperCase();
    for (const [i, r] of rows.entries()) expect(r).toEqual(recs[i].map((v, c) => (c === 13 ? (v === '' ? null : Number(v)) : hex(v))));
    expect(recs.some((r) => r[11] === 'cut "emoji", here\r\n\ufffd')).toBe(true);
  });

  it('counts the same findings in the summary', () => {
    const counts = summaries.threaded.findings;
    expect(counts).toEqual(summaries.inline.findings);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(readFileSync(join(threaded, 'findings.jsonl'), 'utf8').trim().split('\n').length);
  });
});

describe('one event log of many rows: the parse on one thread, the sinks on theirs', () => {
  // One member parses inline whatever --jobs says; from 20,000 rows the sinks still get threads
  // unless --jobs 1 (analyze.ts SINK_THREAD_ROWS): both runs must give the same outputs.
  it('gives the same outputs with the default --jobs as with --jobs 1', async () => {
    const sid = '5e55a0a1-0000-4000-8000-00000000f10d';
    const dir = join(T, 'flood', '.copilot/session-state', sid);
    mkdirSync(dir, { recursive: true });
    const ev = (i: number, type: string, data: unknown) => JSON.stringify({ id: `e1000000-0000-4000-8000-${String(i).padStart(12, '0')}`, parentId: null, timestamp: new Date(Date.UTC(2026, 9, 1, 9) + i * 1000).toISOString(), type, data });
    const lines = [ev(0, 'session.start', { sessionId: sid, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.98', startTime: '2026-10-01T09:00:00.000Z', context: { cwd: '/srv/flood' } })];
    for (let i = 1; i <= 25_000; i++) lines.push(i % 5 === 0 ? '{}' : ev(i, 'user.message', { content: `prompt ${i} ignore all previous instructions ✓` }));
    writeFileSync(join(dir, 'events.jsonl'), `${lines.join('\n')}\n`);
    const fzip = join(T, 'flood.zip');
    const c = await runCli(['collect', '--home', join(T, 'flood'), '--out', fzip], { timeoutMs: 120_000 });
    expect(c.code, c.stderr).toBe(0);
    const outs: string[] = [];
    for (const jobs of [['--jobs', '1'], []]) {
      const out = join(T, `flood-${jobs.length ? 'inline' : 'auto'}`);
      const r = await runCli(['analyze', fzip, '--out', out, ...jobs], { timeoutMs: 240_000 });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      outs.push(out);
    }
    const rows = readFileSync(join(outs[1], 'timeline.jsonl'), 'utf8').trim().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(25_000);
    for (const f of FILES) expect(readFileSync(join(outs[1], f)).equals(readFileSync(join(outs[0], f))), `${f} differs`).toBe(true);
    const [a, b] = outs.map((o) => dump(join(o, 'timeline.sqlite')));
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const t of Object.keys(a)) expect(b[t] === a[t], `table ${t} differs`).toBe(true);
  }, 300_000);
});

describe('a report output that cannot be written, with the sinks on threads', () => {
  it('fails with the reason, no stack trace, and no partial file', async () => {
    const out = join(T, 'blocked');
    mkdirSync(join(out, 'timeline.timesketch.jsonl', 'x'), { recursive: true });
    const r = await runCli(['analyze', zip, '--out', out, '--jobs', '2'], { timeoutMs: 240_000 });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('timeline.timesketch.jsonl');
    expect(stackTraceLines(r.stderr)).toEqual([]);
    expect(readdirSync(out).filter((n) => n.includes('partial'))).toEqual([]);
    expect(readdirSync(out)).not.toContain('timeline.sqlite');
  }, 240_000);
});
