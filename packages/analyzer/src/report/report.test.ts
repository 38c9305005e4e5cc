import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { TimelineRow } from '../row.js';
import { esc } from './html.js';
import { sqliteValues, TEXT_AT } from './csv-feed.js';
import { PAGE_BYTES, SqliteSink } from './sqlite-writer.js';
import { ftsQuery, TimelineView, TimelineViewError } from './timeline-view.js';
import { stagedPath, publishOutputs } from '../atomic.js';
import { jsonLine } from '../outputs.js';
import { OUTPUT_FILES } from './sinks.js';
import { TimesketchSink, timesketchEvent, timesketchLine, timesketchTime } from './timesketch.js';

const T = mkdtempSync(join(tmpdir(), 'aitrail-report-unit-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));

let ord = 0;
function row(p: Partial<TimelineRow>): TimelineRow {
  return { timestamp_utc: '2026-05-01T10:00:00.000Z', host: 'h', user: 'u', agent: 'claude-code', session_id: 's1', project_path: '/p', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'f.jsonl', source_line: 1, ord: ord++, ...p };
}

async function db(name: string, rows: TimelineRow[], findings?: string): Promise<string> {
  const out = join(T, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  // As an earlier sink of the same run leaves it: staged, not yet in place.
  if (findings !== undefined) writeFileSync(stagedPath(join(out, 'findings.jsonl')), findings);
  const s = new SqliteSink(out);
  for (const r of rows) s.row(r);
  await s.end({ out, inventory: {} });
  await publishOutputs(out, OUTPUT_FILES);
  return join(out, 'timeline.sqlite');
}

describe('timesketchTime', () => {
  it.each([
    ['2026-05-01T10:00:00.123Z', '2026-05-01T10:00:00.123+00:00', 1777629600123000],
    ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00+00:00', 1777629600000000],
    ['2026-05-01T10:00:00.1234567Z', '2026-05-01T10:00:00.1234567+00:00', 1777629600123456],
  ])('%s → %s, %d µs', (ts, datetime, timestamp) => {
    expect(timesketchTime(ts)).toEqual({ datetime, timestamp });
  });
  it.each(['', 'yesterday', '2026-05-01 10:00:00', '2026-13-45T99:00:00Z'])('%j is not a time', (ts) => {
    expect(timesketchTime(ts)).toBeNull();
  });
});

describe('timesketchEvent', () => {
  it('cuts the message, keeps the whole text, and gives the tag as a one-item list', () => {
    const e = timesketchEvent(row({ turn_type: 'tool_use', tool_name: 'Bash', text: `a,b ${'x'.repeat(1000)}`, tag: 'permission_decision,odd' }));
    expect(e.message).toBe(`claude-code tool_use Bash: a,b ${'x'.repeat(496)}… [1004 chars]`);
    expect(e.text).toBe(`a,b ${'x'.repeat(1000)}`);
    expect([e.timestamp_desc, e.tag, e.aitrail_tag]).toEqual(['Tool call time', ['permission_decision,odd'], 'permission_decision,odd']);
  });
});

describe('timesketchLine', () => {
  // The rows as a sink is given them: the timeline.jsonl line parsed, no tag rather than an empty one.
  const texts = ['', 'plain', 'quote " and \\ backslash\nnew line', 'ünïcödé ✓ 😀', `${'y'.repeat(499)}😀tail`, 'x'.repeat(3000), 'lone \ud800 surrogate', '\u0000\u001f\u007f\u2028', ',"tag":"fake"'];
  const tags = ['', 'permission_decision', 'odd "quoted",tag:"x"', 'ends with \\'];
  const cases = texts.flatMap((text, i) => tags.map((tag, j) => row({ text, tag, timestamp_utc: (i + j) % 3 === 0 ? '' : (i + j) % 3 === 1 ? '2026-05-01T10:00:00.5Z' : 'not a time', source_line: j % 2 ? null : i, tool_name: j === 1 ? 'Bash' : '', turn_type: (['user', 'assistant', 'tool_use', 'tool_result', 'thinking', 'system', 'constructor' as 'system'] as const)[(i + 2 * j) % 7], project_path: tag })));
  it.each(cases.map((r, i) => [i, r]))('case %i: the same text as JSON.stringify(timesketchEvent(row))', (_i, r) => {
    const line = jsonLine(r as TimelineRow).slice(0, -1);
    const given = JSON.parse(line) as TimelineRow;
    if (given.tag === '') delete given.tag;
    expect(timesketchLine(given, line)).toBe(JSON.stringify(timesketchEvent(given)));
  });
});

describe('TimesketchSink', () => {
  // Given the line only (in-process), or its UTF-8 bytes too (a sink thread): the same file.
  it.each([['line'], ['line and bytes']])('given the %s, writes a row longer than its buffer in pieces, the same bytes as one event line each, in order', async (given_) => {
    const out = join(T, `timesketch-big-${given_.replace(/ /g, '-')}`);
    mkdirSync(out);
    const s = new TimesketchSink(out);
    const odd = ['quote " and \\ backslash\nnew line', 'ünïcödé ✓ 😀', 'lone \ud800 surrogate', ',"tag":"fake"', `${'y'.repeat(499)}😀tail`];
    const rows = [row({ text: 'before' }), row({ text: `${'long prompt '.repeat(200_000)}✓`, tag: 'permission_decision' }), ...odd.map((text, i) => row({ text, tag: i % 2 ? 'odd "quoted",tag:"x"' : '' })), ...Array.from({ length: 3000 }, (_, i) => row({ text: `row ${i} ✓` })), row({ text: 'after' })];
    for (const r of rows) {
      const line = jsonLine(r).slice(0, -1);
      const given = JSON.parse(line) as TimelineRow;
      if (given.tag === '') delete given.tag;
      await s.row(given, line, given_ === 'line' ? undefined : Buffer.from(line));
    }
    await s.end();
    await publishOutputs(out, OUTPUT_FILES);
    const want = rows.map((r) => {
      const given = JSON.parse(jsonLine(r)) as TimelineRow;
      if (given.tag === '') delete given.tag;
      return `${JSON.stringify(timesketchEvent(given))}\n`;
    });
    expect(readFileSync(join(out, 'timeline.timesketch.jsonl'), 'utf8')).toBe(want.join(''));
  });
});

describe('SqliteSink', () => {
  it('stores text as UTF-8 whether given as a row or as the feed gives it, a lone surrogate as U+FFFD (as timeline.csv has it)', async () => {
    const texts = ['lone \ud800 surrogate', 'ünï 😀', '', 'a "quoted", line\r\nbreak'];
    const rows = texts.map((text, i) => row({ text, session_id: `s\udc00${i}`, source_line: i }));
    const out = join(T, 'fed-values');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out);
    const s = new SqliteSink(out);
    for (const r of rows) {
      const v = sqliteValues(r);
      v[TEXT_AT] = Buffer.from(v[TEXT_AT] as string);
      s.values(v);
    }
    await s.end({ out, inventory: {} });
    await publishOutputs(out, OUTPUT_FILES);
    const q = 'SELECT hex(text) AS text, typeof(text) AS kind, hex(session_id) AS sid FROM timeline ORDER BY id';
    const fed = new Database(join(out, 'timeline.sqlite'), { readonly: true });
    const given = new Database(await db('given-rows', rows), { readonly: true });
    const want = texts.map((t, i) => ({ text: Buffer.from(t).toString('hex').toUpperCase(), kind: 'text', sid: Buffer.from(`s\udc00${i}`).toString('hex').toUpperCase() }));
    expect(fed.prepare(q).all()).toEqual(want);
    expect(given.prepare(q).all()).toEqual(want);
    expect(want[0].text).toContain('EFBFBD');
    expect((fed.prepare(`SELECT count(*) AS n FROM timeline_fts WHERE timeline_fts MATCH 'surrogate'`).get() as { n: number }).n).toBe(1);
    fed.close();
    given.close();
  });
  it('carries planner statistics, so the rows of a session are read through the session index', async () => {
    const rows = [...Array.from({ length: 50 }, (_, i) => row({ session_id: `s${i % 5}` })), row({ agent: 'codex', session_id: 'x' })];
    const path = await db('stats', rows);
    const d = new Database(path, { readonly: true });
    const stats = (d.prepare(`SELECT idx FROM sqlite_stat1 WHERE tbl = 'timeline'`).all() as { idx: string }[]).map((r) => r.idx).sort();
    expect(stats).toEqual(['timeline_agent', 'timeline_session', 'timeline_time', 'timeline_turn']);
    const plan = d.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM timeline WHERE host = ? AND user = ? AND agent = ? AND session_id = ?`).all('h', 'u', 'claude-code', 's1') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('; ')).toContain('timeline_session');
    d.close();
  });
  it('is written in pages of PAGE_BYTES (the pragma must come before the first write to count)', async () => {
    const d = new Database(await db('pages', [row({ text: 'x'.repeat(100_000) })]), { readonly: true });
    expect(d.pragma('page_size', { simple: true })).toBe(PAGE_BYTES);
    expect(PAGE_BYTES).toBeGreaterThan(4096);
    d.close();
  });
  it('loads findings.jsonl when an earlier sink wrote it, a bad line kept as a string', async () => {
    const path = await db('findings', [row({ text: 'hello' })], '{"rule":"r1","severity":"high"}\nnot json\n\n{"rule":"r2"}\n');
    const d = new Database(path, { readonly: true });
    expect((d.prepare('SELECT json FROM findings ORDER BY id').all() as { json: string }[]).map((r) => JSON.parse(r.json))).toEqual([{ rule: 'r1', severity: 'high' }, 'not json', { rule: 'r2' }]);
    d.close();
  });

  it('abort leaves neither the database nor its partial file', async () => {
    const out = join(T, 'abort');
    mkdirSync(out);
    const s = new SqliteSink(out);
    s.row(row({}));
    await s.abort();
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('TimelineView', () => {
  it('searches words, never FTS syntax, and filters by time prefix and columns', async () => {
    const path = await db('view', [
      row({ text: 'deploy the "prod" stack NEAR midnight', timestamp_utc: '2026-05-01T10:00:00.000Z' }),
      row({ text: 'deploy staging', timestamp_utc: '2026-05-02T23:59:59.999Z', turn_type: 'assistant' }),
      row({ text: 'unrelated', timestamp_utc: '' }),
    ]);
    const v = TimelineView.open(path);
    const texts = (f: Parameters<TimelineView['query']>[0]) => v.query(f).rows.map((r) => r.text);
    expect(texts({ q: 'deploy' })).toEqual(['deploy the "prod" stack NEAR midnight', 'deploy staging']);
    expect(texts({ q: '"prod" NEAR(' })).toEqual(['deploy the "prod" stack NEAR midnight']);
    expect(texts({ q: 'AND OR NOT' })).toEqual([]);
    expect(texts({ to: '2026-05-02' })).toEqual(['deploy the "prod" stack NEAR midnight', 'deploy staging']);
    expect(texts({ from: '2026-05-02', turn_type: 'assistant' })).toEqual(['deploy staging']);
    expect(v.query({}, 1, 1)).toMatchObject({ total: 3, offset: 1, rows: [{ text: 'deploy staging' }] });
    v.close();
    expect(ftsQuery('a "b')).toBe('"a" """b"');
  });

  it('refuses a file that is not a timeline database, saying what to do', async () => {
    const other = join(T, 'other.sqlite');
    new Database(other).exec('CREATE TABLE x (y)');
    expect(() => TimelineView.open(other)).toThrow(TimelineViewError);
    expect(() => TimelineView.open(other)).toThrow(/run `aitrail analyze` again/);
    expect(() => TimelineView.open(join(T, 'missing.sqlite'))).toThrow(/expected the timeline.sqlite/);
    expect(existsSync(join(T, 'missing.sqlite'))).toBe(false);
  });
});

describe('esc', () => {
  it('leaves no character that opens markup or ends an attribute', () => {
    expect(esc(`<a href="x" onclick='y'>&amp;</a>`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;');
  });
});
