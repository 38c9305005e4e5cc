/**
 * DESIGN's deduplication over plain records (no I/O), so a benchmark can call it alone.
 *
 * Semantics, worked out so that the seed's fixture drops exactly its six rows:
 * - Records group by `key` (the caller hashes host, user, agent, turn_type and text).
 * - Every primary record anchors a cluster of its own and is never dropped.
 * - Secondary records are taken dated first, in (time, ord) order, then undated in ord order.
 * - A dated secondary joins the cluster whose anchor is nearest in time, within its tolerance,
 *   that holds no record from the same source file and no other non-empty session id (ties:
 *   a primary anchor first, then the earlier anchor). An undated one joins any such cluster:
 *   one anchored by a primary first (the latest in time), then one anchored by a dated
 *   secondary, then one anchored by an undated secondary.
 * - A secondary that joins nothing anchors a new cluster that later secondaries can join; the
 *   anchor is the cluster's kept row, so a cluster without a primary keeps a dated row before
 *   an undated one (dated rows are taken first).
 * - A dropped record reports `kept` (the cluster's anchor) and `paired` (the row it pairs with
 *   one to one): the anchor for the first dated copy that joins a cluster and for every undated
 *   copy; a later dated copy has lost the one-to-one match with the anchor and pairs with the
 *   cluster's dated copy nearest in time to it (the seed: the turns row 0 prompt "collapses onto
 *   the snapshot's copy").
 * - A secondary `repeat` record (the parser's tag: a copy of an earlier row of its own file) is
 *   taken after every other one, so its original already sits in a cluster. It joins the cluster
 *   of its key nearest in time, with no tolerance and even one holding its own file (never
 *   another session's): dated clusters first, then undated ones as an undated record would. It
 *   pairs with the cluster's row from its own file, else the kept row, and leaves the cluster as
 *   it was, so repeats change nothing for the others. One with no cluster anchors one.
 * Each search is a binary search plus skip pointers over clusters already holding the same file,
 * so the whole is O(n log n) whatever the share of one text.
 */

/** One row as dedup sees it. */
export interface DedupRecord {
  /**
   * Global order: ties and output order. Unique per row; a primary row may have a second record
   * under a prefix key (prefix-keys.ts), never a secondary one.
   */
  ord: number;
  /** Hash of (host, user, agent, turn_type, text). */
  key: string;
  /** '' when the row has none. */
  session: string;
  /** Epoch milliseconds, or null for an undated row. */
  time: number | null;
  /** Identity of the source file (one cluster holds at most one row per file). */
  file: string;
  secondary: boolean;
  /** For a secondary row: how far in time (seconds) its primary may be. */
  toleranceSeconds: number;
  /** A secondary row tagged `repeat`: it may join a cluster holding a row of its own file. */
  repeat?: boolean;
}

/** What happened to one dropped row. */
export interface DedupDrop {
  /** ord of the cluster's kept row. */
  kept: number;
  /** ord of the row this one paired with (the kept row, or the copy it collapsed onto). */
  paired: number;
}

interface Cluster {
  anchor: DedupRecord;
  session: string;
  /** Source files of the members: a handful at most, so an array beats a Set in memory. */
  files: string[];
  /** The anchor has been paired with a dated copy. */
  anchorTaken: boolean;
  /** Joined rows other than repeats: at most one per file. */
  copies: DedupRecord[] | null;
}

// Shared by every view until its first cluster; never pushed to (add replaces them).
const EMPTY_CLUSTERS: Cluster[] = [];
const EMPTY_TIMES: number[] = [];

/** Clusters sorted by anchor time (dated) or creation (undated), with skip pointers per file. */
class View {
  clusters: Cluster[] = EMPTY_CLUSTERS;
  times: number[] = EMPTY_TIMES;
  private skip: Map<string, Map<number, number>> | null = null;

  add(c: Cluster, t: number): void {
    // Most views hold one cluster: a first push reserves room for 17 (some 150 bytes an array,
    // 100 MB over the 200,000 keys of one Codex history.jsonl), an array literal for one.
    if (this.clusters.length === 0) {
      this.clusters = [c];
      this.times = [t];
      return;
    }
    this.clusters.push(c);
    this.times.push(t);
  }

  /** First index at or after `i` (step `dir`) whose cluster holds no record of `file`; path-compressed. */
  private nextFree(i: number, dir: 1 | -1, file: string): number {
    const k = `${dir}\0${file}`;
    let m = this.skip?.get(k);
    const path: number[] = [];
    const n = this.clusters.length;
    while (i >= 0 && i < n && this.clusters[i].files.includes(file)) {
      path.push(i);
      i = m?.get(i) ?? i + dir;
    }
    if (path.length > 1) {
      this.skip ??= new Map();
      if (!m) {
      m = new Map();
      this.skip.set(k, m);
    }
      for (const p of path) m.set(p, i);
    }
    return i;
  }

  /**
   * Nearest usable cluster walking from `i` in `dir`: free of `file` (unless `r` is a repeat),
   * session-compatible, and (when `limit` is given) with |time - t| <= limit.
   */
  find(i: number, dir: 1 | -1, r: DedupRecord, t: number | null, limit: number | null): number {
    const n = this.clusters.length;
    for (;;) {
      if (!r.repeat) i = this.nextFree(i, dir, r.file);
      if (i < 0 || i >= n) return -1;
      if (t !== null && limit !== null && Math.abs(this.times[i] - t) > limit) return -1;
      const c = this.clusters[i];
      if (r.session === '' || c.session === '' || c.session === r.session) return i;
      i += dir; // an empty-session anchor that a copy from another session already joined
    }
  }

  /** Index of the first time >= t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The clusters of one key: views per session ('' included) and over all sessions, per anchor class. */
class Group {
  readonly views = new Map<string, View>();
  view(cls: 'P' | 'Pu' | 'Q' | 'U', session: string): View {
    const k = `${cls}\0${session}`;
    let v = this.views.get(k);
    if (!v) {
      v = new View();
      this.views.set(k, v);
    }
    return v;
  }
  add(cls: 'P' | 'Pu' | 'Q' | 'U', c: Cluster, t: number): void {
    this.view(cls, c.session).add(c, t);
    this.view(cls, '\u0001all').add(c, t);
  }
  /**
   * Views a record may search: its own session and '' (or all, for a record without session).
   * Only those that exist: made on lookup, four empty views a secondary row that matches nothing
   * left behind (2 KB each; 200,000 such rows of a Codex history.jsonl outgrew the heap).
   */
  searchViews(cls: 'P' | 'Pu' | 'Q' | 'U', session: string): View[] {
    const out: View[] = [];
    for (const s of session === '' ? ['\u0001all'] : [session, '']) {
      const v = this.views.get(`${cls}\0${s}`);
      if (v) out.push(v);
    }
    return out;
  }
}

function newCluster(r: DedupRecord): Cluster {
  return { anchor: r, session: r.session, files: [r.file], anchorTaken: false, copies: null };
}

/** The cluster a dated record joins: the nearest anchor in time within `limit` (null: any), a primary first on a tie, then the earlier. */
function nearest(g: Group, r: DedupRecord, limit: number | null): Cluster | null {
  const t = r.time!;
  let best: { c: Cluster; d: number; primary: boolean } | null = null;
  for (const cls of ['P', 'Q'] as const) {
    for (const v of g.searchViews(cls, r.session)) {
      const at = v.lowerBound(t);
      for (const i of [v.find(at, 1, r, t, limit), v.find(at - 1, -1, r, t, limit)]) {
        if (i < 0) continue;
        const c = v.clusters[i];
        const d = Math.abs(v.times[i] - t);
        const primary = cls === 'P';
        if (!best || d < best.d || (d === best.d && primary && !best.primary) || (d === best.d && primary === best.primary && c.anchor.ord < best.c.anchor.ord)) best = { c, d, primary };
      }
    }
  }
  return best?.c ?? null;
}

/** The cluster an undated record joins: by anchor class in order, the latest one. */
function latest(g: Group, r: DedupRecord): Cluster | null {
  for (const cls of ['P', 'Pu', 'Q', 'U'] as const) {
    let best: { c: Cluster; t: number } | null = null;
    for (const v of g.searchViews(cls, r.session)) {
      const i = v.find(v.clusters.length - 1, -1, r, null, null);
      if (i < 0) continue;
      const c = v.clusters[i];
      if (!best || v.times[i] > best.t || (v.times[i] === best.t && c.anchor.ord > best.c.anchor.ord)) best = { c, t: v.times[i] };
    }
    if (best) return best.c;
  }
  return null;
}

/** Options of {@link dedupRows}. */
export interface DedupOptions {
  /** false keeps everything (`--no-dedup`): no record is dropped. */
  enabled?: boolean;
}

/** Run DESIGN's deduplication; returns the dropped records by ord. */
export function dedupRows(records: Iterable<DedupRecord>, opts: DedupOptions = {}): Map<number, DedupDrop> {
  if (opts.enabled === false) return new Map();
  const groups = new Map<string, Group>();
  const group = (k: string) => {
    let g = groups.get(k);
    if (!g) {
      g = new Group();
      groups.set(k, g);
    }
    return g;
  };
  const dated: DedupRecord[] = [];
  const undated: DedupRecord[] = [];
  const repeats: DedupRecord[] = [];
  const candidates: DedupRecord[] = [];
  const secondaryKeys = new Set<string>();
  for (const r of records) {
    if (!r.secondary) candidates.push(r);
    else {
      secondaryKeys.add(r.key);
      if (r.repeat) repeats.push(r);
      else if (r.time === null) undated.push(r);
      else dated.push(r);
    }
  }
  // A primary whose key no secondary shares can match nothing: it needs no cluster.
  const primaries = candidates.filter((p) => secondaryKeys.has(p.key));
  candidates.length = 0;
  primaries.sort((a, b) => (a.time ?? 0) - (b.time ?? 0) || a.ord - b.ord);
  for (const p of primaries) {
    if (p.time === null) group(p.key).add('Pu', newCluster(p), 0);
    else group(p.key).add('P', newCluster(p), p.time);
  }
  dated.sort((a, b) => a.time! - b.time! || a.ord - b.ord);
  undated.sort((a, b) => a.ord - b.ord);
  repeats.sort((a, b) => (a.time === null ? 1 : 0) - (b.time === null ? 1 : 0) || (a.time ?? 0) - (b.time ?? 0) || a.ord - b.ord);
  const drops = new Map<number, DedupDrop>();

  const join = (c: Cluster, r: DedupRecord) => {
    c.files.push(r.file);
    if (c.session === '' && r.session !== '') c.session = r.session;
    let paired = c.anchor;
    if (r.time !== null) {
      if (!c.anchorTaken) c.anchorTaken = true;
      else {
        let best: DedupRecord | null = null;
        for (const d of c.copies ?? []) if (d.time !== null && (!best || Math.abs(d.time - r.time) < Math.abs(best.time! - r.time))) best = d;
        paired = best ?? c.anchor;
      }
    }
    c.copies ??= [];
    c.copies.push(r);
    drops.set(r.ord, { kept: c.anchor.ord, paired: paired.ord });
  };

  // A key no group holds yet has no cluster to join: its group is made when a cluster is added.
  for (const r of dated) {
    const g = groups.get(r.key);
    const c = g ? nearest(g, r, Math.max(0, r.toleranceSeconds) * 1000) : null;
    if (c) join(c, r);
    else group(r.key).add('Q', newCluster(r), r.time!);
  }
  for (const r of undated) {
    const g = groups.get(r.key);
    const c = g ? latest(g, r) : null;
    if (c) join(c, r);
    else group(r.key).add('U', newCluster(r), 0);
  }
  for (const r of repeats) {
    const g = group(r.key);
    const c = (r.time === null ? null : nearest(g, r, null)) ?? latest(g, r);
    if (!c) {
      if (r.time === null) g.add('U', newCluster(r), 0);
      else g.add('Q', newCluster(r), r.time);
      continue;
    }
    if (c.session === '') c.session = r.session;
    const own = c.anchor.file === r.file ? c.anchor : c.copies?.find((d) => d.file === r.file);
    drops.set(r.ord, { kept: c.anchor.ord, paired: (own ?? c.anchor).ord });
  }
  return drops;
}
