import { describe, expect, it } from 'vitest';
import { type DedupDrop, type DedupRecord, dedupRows } from './dedup.js';

const S = '5e55a0a1-0000-4000-8000-000000000001';
const ms = (t: string) => Date.parse(t);
let nextOrd = 0;
function rec(name: string, over: Partial<DedupRecord> & { key: string; file: string }): DedupRecord & { name: string } {
  return { name, ord: nextOrd++, session: S, time: null, secondary: false, toleranceSeconds: 0, ...over };
}

describe('dedupRows on the seed fixture (hand-built rows)', () => {
  // Keys stand for (host, user, agent, turn_type, text); the store and snapshots have 3600 s.
  const EV = 'homes/u/.copilot/session-state/s/events.jsonl';
  const WS = 'homes/u/.copilot/session-state/s/workspace.yaml';
  const SNAP = 'homes/u/.copilot/session-state/s/rewind-file-snapshots/index.json';
  const DB = 'homes/u/.copilot/session-store.db';
  const HIST = 'homes/u/.copilot/command-history-state.json';
  const sec = { secondary: true, toleranceSeconds: 3600 };
  const rows = [
    rec('ws name', { key: 'system|session name: Fix failing test', file: WS, time: ms('2026-10-01T09:00:00.000Z') }),
    rec('line 4', { key: 'user|fix the failing test', file: EV, time: ms('2026-10-01T09:00:01.200Z') }),
    rec('line 28', { key: 'assistant|The fixture year was stale; it now reads 2026.', file: EV, time: ms('2026-10-01T09:00:15.000Z') }),
    rec('line 35 bad line', { key: 'system|parser: unparseable line (...): {"id":...', file: EV, time: null }),
    rec('sessions name', { ...sec, key: 'system|session name: Fix failing test', file: DB, time: ms('2026-10-01T09:00:00.000Z') }),
    rec('turns 0 prompt', { ...sec, key: 'user|fix the failing test', file: DB, time: ms('2026-10-01T09:00:15.200Z') }),
    rec('turns 0 reply', { ...sec, key: 'assistant|The fixture year was stale; it now reads 2026.', file: DB, time: ms('2026-10-01T09:00:15.200Z') }),
    rec('turns 1 prompt', { ...sec, key: 'user|and run lint', file: DB, time: ms('2026-10-01T09:01:05.000Z') }),
    rec('file changed', { ...sec, key: 'system|file changed: /srv/proj/date.test.js tool=apply_patch', file: DB, time: ms('2026-10-01T09:00:12.500Z') }),
    rec('snapshot prompt', { ...sec, key: 'user|fix the failing test', file: SNAP, time: ms('2026-10-01T09:00:01.150Z') }),
    rec('rewind snapshot', { ...sec, key: 'system|rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js', file: SNAP, time: ms('2026-10-01T09:00:01.150Z') }),
    rec('history and run lint', { ...sec, key: 'user|and run lint', file: HIST, session: '', toleranceSeconds: 0 }),
    rec('history /model', { ...sec, key: 'user|/model', file: HIST, session: '', toleranceSeconds: 0 }),
    rec('history fix', { ...sec, key: 'user|fix the failing test', file: HIST, session: '', toleranceSeconds: 0 }),
  ];
  const byOrd = new Map(rows.map((r) => [r.ord, r.name]));
  const drops = dedupRows(rows);
  const named = [...drops].map(([ord, d]) => `${byOrd.get(ord)} -> kept ${byOrd.get(d.kept)}, paired ${byOrd.get(d.paired)}`).sort();

  it('drops exactly the six rows the seed names, each with its match', () => {
    expect(named).toEqual([
      'history and run lint -> kept turns 1 prompt, paired turns 1 prompt',
      'history fix -> kept line 4, paired line 4',
      'sessions name -> kept ws name, paired ws name',
      'snapshot prompt -> kept line 4, paired line 4',
      'turns 0 prompt -> kept line 4, paired snapshot prompt',
      'turns 0 reply -> kept line 28, paired line 28',
    ]);
  });

  it('keeps turns row 1, the history /model, file changed and rewind snapshot', () => {
    const kept = rows.filter((r) => !drops.has(r.ord)).map((r) => r.name);
    expect(kept).toEqual(expect.arrayContaining(['turns 1 prompt', 'history /model', 'file changed', 'rewind snapshot']));
    expect(kept).toHaveLength(rows.length - 6);
  });

  it('is independent of the input order', () => {
    const shuffled = [...rows].reverse();
    expect([...dedupRows(shuffled)].sort((a, b) => a[0] - b[0])).toEqual([...drops].sort((a, b) => a[0] - b[0]));
  });

  it('keeps everything when disabled (--no-dedup)', () => {
    expect(dedupRows(rows, { enabled: false }).size).toBe(0);
  });
});

describe('dedupRows rules one by one', () => {
  const P = (over: Partial<DedupRecord>) => rec('p', { key: 'k', file: 'ev', time: 0, ...over });
  const Sx = (over: Partial<DedupRecord>) => rec('s', { key: 'k', file: 'db', time: 0, secondary: true, toleranceSeconds: 60, ...over });

  it('never drops a primary row, even an exact copy from another primary file', () => {
    const rows = [P({ file: 'a' }), P({ file: 'b' })];
    expect(dedupRows(rows).size).toBe(0);
  });

  it('rows with different non-empty session ids never match', () => {
    const p = P({ session: 'A' });
    const s = Sx({ session: 'B' });
    expect(dedupRows([p, s]).size).toBe(0);
    const s2 = Sx({ session: '' });
    expect(dedupRows([p, s2]).get(s2.ord)?.kept).toBe(p.ord);
  });

  it('a copy outside the tolerance is kept', () => {
    const p = P({ time: 0 });
    const s = Sx({ time: 61_000 });
    expect(dedupRows([p, s]).size).toBe(0);
    const s2 = Sx({ time: 60_000 });
    expect(dedupRows([p, s2]).size).toBe(1);
  });

  it('a secondary row joins the nearest-in-time cluster', () => {
    const p1 = P({ time: 0 });
    const p2 = P({ time: 50_000 });
    const s = Sx({ time: 30_000 });
    expect(dedupRows([p1, p2, s]).get(s.ord)?.kept).toBe(p2.ord);
  });

  it('a cluster holds at most one row per source file: the second copy from the same file goes to the next cluster', () => {
    const p1 = P({ time: 0 });
    const p2 = P({ time: 40_000 });
    const s1 = Sx({ time: 1000 });
    const s2 = Sx({ time: 2000 });
    const d = dedupRows([p1, p2, s1, s2]);
    expect(d.get(s1.ord)?.kept).toBe(p1.ord);
    expect(d.get(s2.ord)?.kept).toBe(p2.ord);
  });

  it('a secondary row that joins nothing starts a cluster that a later copy from another file joins', () => {
    const s1 = Sx({ time: 0, file: 'db' });
    const s2 = Sx({ time: 5000, file: 'snap' });
    const s3 = Sx({ time: 6000, file: 'db' });
    const d = dedupRows([s1, s2, s3]);
    expect(d.has(s1.ord)).toBe(false);
    expect(d.get(s2.ord)).toEqual({ kept: s1.ord, paired: s1.ord });
    expect(d.has(s3.ord)).toBe(false); // same file as the anchor: its own cluster
  });

  it('an undated row joins a primary cluster first, and a cluster with no primary keeps the dated row', () => {
    const q = Sx({ time: 0, file: 'db' });
    const h = Sx({ time: null, file: 'hist', session: '' });
    expect(dedupRows([h, q]).get(h.ord)?.kept).toBe(q.ord);
    const p = P({ time: 9_000_000 });
    expect(dedupRows([h, q, p]).get(h.ord)?.kept).toBe(p.ord);
  });

  it('two undated copies from different files collapse onto the first', () => {
    const h1 = Sx({ time: null, file: 'h1', session: '' });
    const h2 = Sx({ time: null, file: 'h2', session: '' });
    expect(dedupRows([h1, h2]).get(h2.ord)?.kept).toBe(h1.ord);
  });

  it('an empty-session primary taken by one session is not joined by another', () => {
    const p = P({ session: '' });
    const a = Sx({ session: 'A', file: 'x' });
    const b = Sx({ session: 'B', file: 'y' });
    const d = dedupRows([p, a, b]);
    expect(d.get(a.ord)?.kept).toBe(p.ord);
    expect(d.has(b.ord)).toBe(false);
  });
});

describe('dedupRows at scale (the "continue" shape, smaller)', () => {
  it('100,000 rows with 20,000 sharing one text: every store copy pairs with its own prompt', () => {
    const rows: DedupRecord[] = [];
    let ord = 0;
    const n = 10_000;
    for (let i = 0; i < n; i++) {
      const session = `s${i % 50}`;
      rows.push({ ord: ord++, key: 'continue', session, time: i * 1000, file: `ev-${session}`, secondary: false, toleranceSeconds: 0 });
      rows.push({ ord: ord++, key: 'continue', session, time: i * 1000 + 300, file: 'db', secondary: true, toleranceSeconds: 3600 });
    }
    for (let i = 0; i < 80_000; i++) rows.push({ ord: ord++, key: `other ${i % 7000}`, session: `s${i % 50}`, time: i, file: 'ev-x', secondary: false, toleranceSeconds: 0 });
    const d = dedupRows(rows);
    expect(d.size).toBe(n);
    // Each copy 300 ms after its prompt pairs with exactly that prompt (one per cluster).
    const kept = new Set([...d.values()].map((x) => x.kept));
    expect(kept.size).toBe(n);
    for (const [o, x] of d) expect(x.kept).toBe(o - 1);
  });

  it('copies stacked at one instant still spread one per cluster without an all-pairs scan', () => {
    const rows: DedupRecord[] = [];
    const n = 30_000;
    for (let i = 0; i < n; i++) rows.push({ ord: i, key: 'continue', session: 'S', time: 0, file: 'ev', secondary: false, toleranceSeconds: 0 });
    for (let i = 0; i < n; i++) rows.push({ ord: n + i, key: 'continue', session: 'S', time: 0, file: 'db', secondary: true, toleranceSeconds: 3600 });
    const d = dedupRows(rows);
    expect(d.size).toBe(n);
    expect(new Set([...d.values()].map((x) => x.kept)).size).toBe(n);
  });
});

describe("dedupRows with the store's `repeat` rows (seed: the Linux round's turns)", () => {
  // Store rows and times as the seed gives them; the log's times are picked to fit its account
  // (the complete row 4 ms after prompt 2, the prompt-only rows 58 to 157 s after their prompt).
  const S1 = 'linux-session-1';
  const S2 = 'linux-session-2';
  const DB = 'homes/u/.copilot/session-store.db';
  const t = (hms: string) => ms(`2026-10-01T${hms}Z`);
  const log = [
    rec('line p1', { key: 'user|p1', session: S1, file: 'ev1', time: t('21:03:00.000') }),
    rec('line r1', { key: 'assistant|r1', session: S1, file: 'ev1', time: t('21:05:00.000') }),
    rec('line p2', { key: 'user|p2', session: S1, file: 'ev1', time: t('21:05:34.923') }),
    rec('line r2', { key: 'assistant|r2', session: S1, file: 'ev1', time: t('21:15:50.000') }),
    rec('line q1', { key: 'user|q1', session: S2, file: 'ev2', time: t('21:16:40.000') }),
    rec('line qr', { key: 'assistant|qr', session: S2, file: 'ev2', time: t('21:19:20.000') }),
  ];
  const db = (name: string, key: string, session: string, hms: string, repeat = false) =>
    rec(name, { key, session, file: DB, time: t(hms), secondary: true, toleranceSeconds: 3600, ...(repeat ? { repeat } : {}) });
  const store = [
    db('turns 0 p1', 'user|p1', S1, '21:05:34.927'),
    db('turns 0 r1', 'assistant|r1', S1, '21:05:34.927'),
    db('turns 1 p2', 'user|p2', S1, '21:08:11.565'),
    db('turns 2 p1', 'user|p1', S1, '21:08:12.119', true),
    db('turns 2 r1', 'assistant|r1', S1, '21:08:12.119', true),
    db('turns 3 p2', 'user|p2', S1, '21:16:01.831', true),
    db('turns 3 r2', 'assistant|r2', S1, '21:16:01.831'),
    db('s2 turns 0 q1', 'user|q1', S2, '21:18:16.638'),
    db('s2 turns 1 q1', 'user|q1', S2, '21:19:27.956', true),
    db('s2 turns 1 qr', 'assistant|qr', S2, '21:19:27.956'),
  ];
  const names = new Map([...log, ...store].map((r) => [r.ord, r.name]));
  const show = (d: Map<number, DedupDrop>) => [...d].map(([o, x]) => `${names.get(o)} -> kept ${names.get(x.kept)}, paired ${names.get(x.paired)}`).sort();

  it('with the log present every store copy drops; a repeat pairs with the earlier row of its own file', () => {
    expect(show(dedupRows([...log, ...store]))).toEqual([
      's2 turns 0 q1 -> kept line q1, paired line q1',
      's2 turns 1 q1 -> kept line q1, paired s2 turns 0 q1',
      's2 turns 1 qr -> kept line qr, paired line qr',
      'turns 0 p1 -> kept line p1, paired line p1',
      'turns 0 r1 -> kept line r1, paired line r1',
      'turns 1 p2 -> kept line p2, paired line p2',
      'turns 2 p1 -> kept line p1, paired turns 0 p1',
      'turns 2 r1 -> kept line r1, paired turns 0 r1',
      'turns 3 p2 -> kept line p2, paired turns 1 p2',
      'turns 3 r2 -> kept line r2, paired line r2',
    ]);
  });

  it('with the log deleted one copy of each prompt and reply is kept and the repeats drop onto it', () => {
    const d = dedupRows(store);
    expect(show(d)).toEqual([
      's2 turns 1 q1 -> kept s2 turns 0 q1, paired s2 turns 0 q1',
      'turns 2 p1 -> kept turns 0 p1, paired turns 0 p1',
      'turns 2 r1 -> kept turns 0 r1, paired turns 0 r1',
      'turns 3 p2 -> kept turns 1 p2, paired turns 1 p2',
    ]);
    expect(store.filter((r) => !d.has(r.ord)).map((r) => r.key)).toEqual(['user|p1', 'assistant|r1', 'user|p2', 'assistant|r2', 'user|q1', 'assistant|qr']);
  });

  it('is independent of the input order', () => {
    const all = [...log, ...store];
    const sorted = (d: Map<number, DedupDrop>) => [...d].sort((a, b) => a[0] - b[0]);
    expect(sorted(dedupRows([...all].reverse()))).toEqual(sorted(dedupRows(all)));
  });

  it('keeps a prompt typed twice with a different reply (the parser tags neither)', () => {
    const a = db('continue A', 'user|continue', S1, '10:00:00.000');
    const b = db('continue B', 'user|continue', S1, '10:05:00.000');
    expect(dedupRows([a, b]).size).toBe(0);
  });
});

describe('dedupRows: what a repeat may and may not join', () => {
  const P = (over: Partial<DedupRecord>) => rec('p', { key: 'k', file: 'ev', time: 0, ...over });
  const R = (over: Partial<DedupRecord>) => rec('r', { key: 'k', file: 'db', time: 0, secondary: true, toleranceSeconds: 60, repeat: true, ...over });

  it('joins its original beyond the tolerance and before it in time (repeats are taken last)', () => {
    const orig = R({ time: 0, repeat: false });
    const far = R({ time: 9_000_000 });
    const early = R({ time: -5000 });
    const d = dedupRows([far, early, orig]);
    expect(d.get(far.ord)).toEqual({ kept: orig.ord, paired: orig.ord });
    expect(d.get(early.ord)).toEqual({ kept: orig.ord, paired: orig.ord });
    expect(d.has(orig.ord)).toBe(false);
  });

  it('never joins another session, and takes nothing from the others: a later copy still pairs with the primary', () => {
    const p = P({ session: 'A', time: 0 });
    const other = R({ session: 'B', time: 10 });
    expect(dedupRows([p, other]).has(other.ord)).toBe(false);
    const rep = R({ session: 'A', time: 10 });
    const snap = R({ session: 'A', time: 1000, file: 'snap', repeat: false });
    const d = dedupRows([p, rep, snap]);
    expect(d.get(snap.ord)).toEqual({ kept: p.ord, paired: p.ord });
    expect(d.get(rep.ord)).toEqual({ kept: p.ord, paired: p.ord });
  });

  it('an undated repeat joins like an undated row, its own file allowed', () => {
    const orig = R({ time: null, repeat: false });
    const rep = R({ time: null });
    expect(dedupRows([orig, rep]).get(rep.ord)).toEqual({ kept: orig.ord, paired: orig.ord });
  });

  // Its speed (O(n log n), not one scan per repeat) is the bench's: pnpm bench --only dedup.
  it('100,000 repeats of one text all pair with the one primary row', () => {
    const rows: DedupRecord[] = [{ ord: 0, key: 'continue', session: 'S', time: 0, file: 'ev', secondary: false, toleranceSeconds: 0 }];
    for (let i = 1; i <= 100_000; i++) rows.push({ ord: i, key: 'continue', session: 'S', time: i * 10, file: 'db', secondary: true, toleranceSeconds: 3600, repeat: i > 1 });
    const d = dedupRows(rows);
    expect(d.size).toBe(100_000);
    expect(d.get(50_000)).toEqual({ kept: 0, paired: 1 });
    expect(d.get(100_000)).toEqual({ kept: 0, paired: 1 });
  });
});
