import { asArray, asObject, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { type BubbleEnv, bubbleRows, type ConversationState } from './bubble-rows.js';
import { composerHeadRows, composerState, composerTailRows, headerBubbleIds, missingRows } from './composer-rows.js';

/** A composerData record's key and rowid. */
export interface ComposerEntry {
  id: string;
  rowid: number;
}

const COMPOSER = 'composerData:';

/** Every composerData key, in rowid order (the order Cursor created them). */
export function listComposers(db: SqliteDatabase): ComposerEntry[] {
  const rows = db.prepare("SELECT rowid AS rowid, key FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' ORDER BY rowid").all() as { rowid: number; key: string }[];
  return rows.map((r) => ({ id: String(r.key).slice(COMPOSER.length), rowid: r.rowid }));
}

/** Subagent composer id → its parent, from every composer's `subComposerIds` (read by SQLite, not loaded). */
export function parentsOf(db: SqliteDatabase): Map<string, string> {
  const out = new Map<string, string>();
  let rows: { key: string; subs: string }[];
  try {
    rows = db
      .prepare(
        "SELECT key, json_extract(CAST(value AS TEXT), '$.subComposerIds') AS subs FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' AND json_valid(CAST(value AS TEXT)) AND json_type(CAST(value AS TEXT), '$.subComposerIds') = 'array' AND json_array_length(CAST(value AS TEXT), '$.subComposerIds') > 0",
      )
      .all() as { key: string; subs: string }[];
  } catch {
    return out;
  }
  for (const r of rows) {
    let subs: unknown;
    try {
      subs = JSON.parse(r.subs);
    } catch {
      continue;
    }
    for (const s of asArray(subs) ?? []) if (typeof s === 'string') out.set(s, String(r.key).slice(COMPOSER.length));
  }
  return out;
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : Buffer.isBuffer(v) ? v.toString('utf8') : String(v));

/** A value parsed as JSON, or why it is not (NULL, or not JSON). */
function parseValue(v: unknown): { ok: true; value: unknown } | { ok: false; why: string } {
  const t = text(v);
  if (t === null) return { ok: false, why: 'NULL' };
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch {
    return { ok: false, why: 'not JSON' };
  }
}

interface BubbleItem {
  value: unknown;
  line: number | null;
  key: string;
  bad?: string;
}

// The bubbles of one composer in conversation order: inline (oldest form), from the
// conversationMap (v1/v2), or one bubbleId record each (v3), header order first, then any record
// the header does not list, by rowid. `found` counts the header's bubbles that have a record.
function* bubblesOf(db: SqliteDatabase, c: JsonObject, id: string, line: number, counts: { listed: number; found: number; unlisted: number }): Generator<BubbleItem> {
  const inline = asArray(c.conversation) ?? [];
  const ids = headerBubbleIds(c);
  counts.listed = ids.length;
  if (inline.length > 0) {
    counts.found = Math.min(ids.length, inline.length);
    counts.unlisted = Math.max(0, inline.length - ids.length);
    for (const b of inline) yield { value: b, line, key: `${COMPOSER}${id}` };
    return;
  }
  const map = asObject(c.conversationMap) ?? {};
  if (Object.keys(map).length > 0) {
    const seen = new Set<string>();
    for (const b of ids) {
      if (!(b in map)) continue;
      counts.found++;
      seen.add(b);
      yield { value: map[b], line, key: `${COMPOSER}${id}` };
    }
    for (const [b, v] of Object.entries(map)) {
      if (seen.has(b)) continue;
      counts.unlisted++;
      yield { value: v, line, key: `${COMPOSER}${id}` };
    }
    return;
  }
  // One index range scan gives every bubble key of the composer with its rowid; values are then
  // read by rowid, one at a time (a conversation is never held whole).
  const st = stmts(db);
  const prefix = `bubbleId:${id}:`;
  const rowids = new Map<string, number>();
  for (const r of st.bubbleKeys.all(prefix, `bubbleId:${id};`) as { rowid: number; key: unknown }[]) rowids.set(String(r.key).slice(prefix.length), r.rowid);
  const read = (b: string, rowid: number): BubbleItem => {
    const p = parseValue((st.byRowid.get(rowid) as { value: unknown } | undefined)?.value);
    return p.ok ? { value: p.value, line: rowid, key: prefix + b } : { value: undefined, line: rowid, key: prefix + b, bad: p.why };
  };
  const listed = new Set<string>();
  for (const b of ids) {
    const rowid = rowids.get(b);
    if (rowid === undefined || listed.has(b)) continue;
    listed.add(b);
    counts.found++;
    yield read(b, rowid);
  }
  const extra = [...rowids].filter(([b]) => !listed.has(b)).sort((x, y) => x[1] - y[1]);
  for (const [b, rowid] of extra) {
    counts.unlisted++;
    yield read(b, rowid);
  }
}

/** The statements every composer uses, prepared once per database. */
interface Stmts {
  bubbleKeys: Statement<unknown[]>;
  byRowid: Statement<unknown[]>;
  byKey: Statement<unknown[]>;
}
const prepared = new WeakMap<SqliteDatabase, Stmts>();
function stmts(db: SqliteDatabase): Stmts {
  let s = prepared.get(db);
  if (!s) {
    s = {
      bubbleKeys: db.prepare('SELECT rowid AS rowid, key FROM cursorDiskKV WHERE key >= ? AND key < ?'),
      byRowid: db.prepare('SELECT value FROM cursorDiskKV WHERE rowid = ?'),
      byKey: db.prepare('SELECT rowid AS rowid, value FROM cursorDiskKV WHERE key = ?'),
    };
    prepared.set(db, s);
  }
  return s;
}

function env(db: SqliteDatabase, composer: string, ctx: ParseContext): BubbleEnv {
  const get = stmts(db).byKey;
  return {
    ctx,
    checkpoint(id) {
      const r = get.get(`checkpointId:${composer}:${id}`) as { rowid: number; value: unknown } | undefined;
      if (!r) return undefined;
      const p = parseValue(r.value);
      return { line: r.rowid, value: p.ok ? p.value : undefined };
    },
  };
}

function badValueRow(key: string, why: string, line: number | null, st: ConversationState): Row {
  return makeRow('system', `parser: unparseable value for ${key} (${why})`, { session_id: st.sessionId, project_path: st.project, source_line: line, tag: 'bad_line' });
}

// Walk bubbles with one of lookahead: a user bubble without a time borrows the reply's.
function* walk(items: Iterable<BubbleItem>, st: ConversationState, e: BubbleEnv): Generator<Row> {
  const it = items[Symbol.iterator]();
  let cur = it.next();
  while (!cur.done) {
    const nxt = it.next();
    const b = cur.value;
    if (b.bad) yield badValueRow(b.key, b.bad, b.line, st);
    else yield* bubbleRows(b.value, nxt.done ? undefined : nxt.value.value, b.line, st, e);
    cur = nxt;
  }
}

/** Every row of one composer: its start and model, its bubbles in order, what is missing, its name and totals. */
export function* conversationRows(db: SqliteDatabase, entry: ComposerEntry, project: string, parent: string, ctx: ParseContext): Generator<Row> {
  const r = stmts(db).byRowid.get(entry.rowid) as { value: unknown } | undefined;
  const p = parseValue(r?.value);
  const bare = composerState({}, entry.id, project);
  if (!p.ok) {
    // Cursor leaves a composerData key with a NULL value (seen in real 2025 databases): the
    // conversation's record was cleared; say so instead of calling it corrupt.
    if (p.why === 'NULL') yield makeRow('system', `composer record cleared: composerData:${entry.id} holds NULL`, { session_id: entry.id, project_path: project, source_line: entry.rowid, tag: 'record_cleared' });
    else yield badValueRow(`${COMPOSER}${entry.id}`, p.why, entry.rowid, bare);
    return;
  }
  if (!isObject(p.value)) {
    yield badValueRow(`${COMPOSER}${entry.id}`, 'not a JSON object', entry.rowid, bare);
    return;
  }
  const c = p.value;
  const st = composerState(c, entry.id, project);
  if (st.branch) ctx.fact({ session_id: st.sessionId, key: 'branch', value: st.branch, priority: 1 });
  ctx.fact({ session_id: st.sessionId, key: 'client', value: 'Cursor', priority: 1 });
  yield* composerHeadRows(c, entry.rowid, st, parent);
  const counts = { listed: 0, found: 0, unlisted: 0 };
  yield* walk(bubblesOf(db, c, entry.id, entry.rowid, counts), st, env(db, entry.id, ctx));
  yield* missingRows(counts.listed, counts.found, counts.unlisted, st, entry.rowid, toUtc(c.lastUpdatedAt) || st.sessionTime);
  yield* composerTailRows(c, entry.rowid, st);
}

// cursorDiskKV key families Cursor writes that give no row of their own (read through the
// composer, or edit-review and context state: see docs/agents/cursor.md).
const KNOWN = new Set(['composerData', 'bubbleId', 'checkpointId', 'messageRequestContext', 'composer.content', 'codeBlockDiff', 'codeBlockPartialInlineDiffFates', 'inlineDiffs', 'agentKv']);

/** The family of a cursorDiskKV key: the part before `:`, with a trailing id or number dropped. */
export function keyFamily(key: string): string {
  const head = key.split(':')[0];
  return head.replace(/[-.](?:[0-9a-f-]{8,}|\d+)$/i, '');
}

/**
 * One pass over every key (the index only, no value): key families this parser does not know go
 * to `ctx.unknown`; the composers that bubbles name but that have no composerData are returned.
 */
export function scanKeys(db: SqliteDatabase, composers: Set<string>, ctx: ParseContext): string[] {
  const orphans = new Set<string>();
  for (const r of db.prepare('SELECT rowid AS rowid, key FROM cursorDiskKV').iterate() as IterableIterator<{ rowid: number; key: unknown }>) {
    const key = text(r.key) ?? '';
    const family = keyFamily(key);
    if (family === 'bubbleId') {
      const composer = key.split(':')[1] ?? '';
      if (composer && !composers.has(composer)) orphans.add(composer);
    } else if (!KNOWN.has(family)) ctx.unknown(`cursorDiskKV ${family || '(empty key)'}`, r.rowid);
  }
  return [...orphans];
}

/** The bubbles of a composer whose composerData is gone, in createdAt order, tagged `orphan_bubble`. */
export function* orphanRows(db: SqliteDatabase, id: string, ctx: ParseContext): Generator<Row> {
  const rows = db.prepare('SELECT rowid AS rowid, key, value FROM cursorDiskKV WHERE key >= ? AND key < ?').all(`bubbleId:${id}:`, `bubbleId:${id};`) as { rowid: number; key: string; value: unknown }[];
  const items: (BubbleItem & { t: string })[] = rows.map((r) => {
    const p = parseValue(r.value);
    return p.ok ? { value: p.value, line: r.rowid, key: r.key, t: toUtc(asObject(p.value)?.createdAt) } : { value: undefined, line: r.rowid, key: r.key, bad: p.why, t: '' };
  });
  items.sort((x, y) => (x.t === y.t ? (x.line ?? 0) - (y.line ?? 0) : x.t === '' ? 1 : y.t === '' ? -1 : x.t < y.t ? -1 : 1));
  const st: ConversationState = { sessionId: id, project: '', branch: '', model: '', prevTime: '', sessionTime: '', orphan: true };
  const first = items.find((i) => i.t)?.t ?? '';
  yield makeRow('system', `orphan conversation: ${items.length} message record(s) of composer ${id}, whose composerData is gone`, { timestamp_utc: first, session_id: id, source_line: items[0]?.line ?? null, tag: 'orphan_bubble' });
  yield* walk(items, st, env(db, id, ctx));
}
