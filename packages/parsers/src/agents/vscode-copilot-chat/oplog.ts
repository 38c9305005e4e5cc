import { isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { restoreMarkers, TRUNCATION_HINT } from './markers.js';
import { isLongInitial, LONG_LINE_BYTES, readLongLine, streamInitial } from './oplog-long.js';
import { slimPart, slimRequest, slimResult } from './slim.js';
import { jsonText } from '../../sdk/compact-json.js';
import { pushAll } from '../../sdk/push-all.js';

/**
 * Replay of VS Code's chat session operation log, chatSessions/<id>.jsonl (microsoft/vscode
 * src/vs/workbench/contrib/chat/common/model/objectMutationLog.ts @047238f9): one JSON entry per
 * line, kind 0 Initial {v}, 1 Set {k, v}, 2 Push {k, v?, i?} (with i, the array is first cut to
 * length i), 3 Delete {k}; k is a path of keys and indexes. Compaction rewrites the file as one
 * Initial. The replay keeps, for every request and response part, the 1-based line that last
 * wrote it (the rows' source_line), and the requests a Push with `i` or a replacing Set took away
 * (edited or removed prompts, still in the file above the line that replaced them).
 *
 * Unlike VS Code, which stops at the first bad line (ObjectMutationLog.read throws), every line
 * that cannot be applied is a bad_line row and the replay goes on.
 */

/** Where one request was written. */
export interface RequestLines {
  /** The line that last wrote the request whole. */
  line: number;
  /** Per field (`message`, `result`, `editedFileEvents`...): the line that last wrote it. */
  fields: Map<string, number>;
  /** Per response part: the line that last wrote it. */
  parts: number[];
}

/** A request the log took away, as it stood then. */
export interface RemovedRequest {
  request: unknown;
  lines: RequestLines;
  /** The line that removed it. */
  removedAt: number;
}

/** What a replay leaves: the final session and the bookkeeping rows need. */
export interface Replay {
  state: JsonObject | undefined;
  /** The line of the Initial entry the final state grew from. */
  initialLine: number;
  /** Per key of the session object (`customTitle`, `inputState`...): the line that last wrote it. */
  sessionFields: Map<string, number>;
  requests: RequestLines[];
  removed: RemovedRequest[];
  /** Lines read (records), for accounting. */
  lines: number;
  /** Values VS Code had replaced by its truncation marker that an earlier line kept whole. */
  restored: number;
}

/** An empty {@link Replay} to fill. */
export function newReplay(): Replay {
  return { state: undefined, initialLine: 0, sessionFields: new Map(), requests: [], removed: [], lines: 0, restored: 0 };
}

type Key = string | number;

// An index past this many elements beyond an array's end is refused (a hostile `k` would
// otherwise make a sparse array of a billion holes).
const MAX_GAP = 0;

/**
 * Replay the log; yields bad-line rows as it goes and fills `out`. `open` gives the file's bytes
 * (called again for a line longer than {@link LONG_LINE_BYTES}: an Initial entry that long is
 * streamed request by request, any other read whole, so memory holds the slimmed session and one
 * request, not the line).
 */
export async function* replayLog(open: () => AsyncIterable<Buffer | Uint8Array>, out: Replay, ctx: ParseContext, fields: Partial<Row>): AsyncGenerator<Row> {
  for await (const l of readJsonLines(open(), { maxLineBytes: LONG_LINE_BYTES })) {
    if (l.blank) continue;
    out.lines++;
    if (l.error !== undefined && l.value === undefined && l.error.startsWith('line longer than')) {
      if (isLongInitial(l.text)) {
        const streamed: { v?: JsonObject } = {};
        yield* streamInitial(open, l.line, streamed, fields);
        if (streamed.v) applyInitial(out, streamed.v, l.line, false);
        continue;
      }
      const whole = await readLongLine(open, l.line);
      if ('error' in whole) {
        yield badLineRow(whole.error, l.text, l.line, fields);
        continue;
      }
      const why = apply(out, whole.value, l.line, false);
      if (why) yield badLineRow(why, l.text, l.line, fields);
      continue;
    }
    if (l.error !== undefined && l.value === undefined) {
      yield badLineRow(l.error, l.text, l.line, fields);
      continue;
    }
    const why = apply(out, l.value as JsonObject, l.line, l.text.includes(TRUNCATION_HINT));
    if (why) yield badLineRow(why, l.text, l.line, fields);
  }
  if (out.restored > 0) ctx.warn(`${out.restored} value(s) VS Code wrote as its truncation marker were read from an earlier line that held them whole`);
  // A request taken away and later written again is in the final state: not removed.
  const live = new Set(asRequests(out.state).map(requestId).filter(Boolean));
  const last = new Map<string, RemovedRequest>();
  const anonymous: RemovedRequest[] = [];
  for (const r of out.removed) {
    const id = requestId(r.request);
    if (id === '') anonymous.push(r);
    else if (!live.has(id)) last.set(id, r);
  }
  out.removed = [...anonymous, ...last.values()].sort((a, b) => a.removedAt - b.removedAt);
}

function asRequests(state: unknown): unknown[] {
  return isObject(state) && Array.isArray(state.requests) ? state.requests : [];
}

function requestId(r: unknown): string {
  return isObject(r) && typeof r.requestId === 'string' ? r.requestId : '';
}

function isPath(k: unknown): k is Key[] {
  return Array.isArray(k) && k.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s) && s >= 0));
}

/** Apply one entry; returns why it could not be applied, or undefined. */
function apply(out: Replay, e: JsonObject, line: number, marked: boolean): string | undefined {
  const kind = e.kind;
  if (kind === 0) {
    if (!isObject(e.v)) return `expected the Initial entry's v to be the session object, found ${e.v === null ? 'null' : typeof e.v}`;
    applyInitial(out, e.v, line, marked);
    return undefined;
  }
  if (kind !== 1 && kind !== 2 && kind !== 3) return `expected kind 0 (Initial), 1 (Set), 2 (Push) or 3 (Delete), found ${jsonText(kind)}`;
  if (out.state === undefined) return 'a Set, Push or Delete before any Initial entry';
  if (!isPath(e.k)) return 'expected k to be a path of keys and indexes';
  const k = e.k;
  if (k.length === 0) return kind === 2 ? 'a Push needs a path to an array' : undefined; // VS Code ignores a Set of the root
  const parent = walk(out.state, k.slice(0, -1));
  if (typeof parent === 'string') return parent;
  const last = k[k.length - 1];
  if (kind === 2) return push(out, parent, last, k, e, line, marked);
  const prev = own(parent, last);
  let v = kind === 3 ? undefined : e.v;
  if (kind === 1 && marked && prev !== undefined) v = restoreMarkers(v, prev, out);
  if (Array.isArray(parent)) {
    if (typeof last !== 'number' || last > parent.length + MAX_GAP) return `index ${jsonText(last)} is past the end of the array (length ${parent.length})`;
  } else if (typeof last !== 'string') return `index ${last} into an object`;
  slimAt(k, v);
  book(out, k, line, prev, v);
  if (v === undefined && !Array.isArray(parent)) delete (parent as JsonObject)[last as string];
  else Object.defineProperty(parent, last, { value: v, enumerable: true, writable: true, configurable: true });
  return undefined;
}

/** The session object of an Initial entry replaces the state (a compaction rewrites the file as one). */
function applyInitial(out: Replay, value: JsonObject, line: number, marked: boolean): void {
  const v = marked && out.state ? (restoreMarkers(value, out.state, out) as JsonObject) : value;
  for (const r of asRequests(v)) slimRequest(r);
  takeAway(out, asRequests(out.state), 0, line, asRequests(v));
  out.state = v;
  out.initialLine = line;
  out.sessionFields = new Map(Object.keys(v).map((k) => [k, line]));
  out.requests = asRequests(v).map((r) => ({ ...fresh(line), parts: partsOf(r).map(() => line) }));
}

function push(out: Replay, parent: JsonObject | unknown[], key: Key, k: Key[], e: JsonObject, line: number, marked: boolean): string | undefined {
  const cur = own(parent, key);
  if (cur !== undefined && cur !== null && !Array.isArray(cur)) return `expected an array at ${jsonText(k)}, found ${typeof cur}`;
  if (e.v !== undefined && !Array.isArray(e.v)) return 'expected v to be an array of items to push';
  if (e.i !== undefined && !(typeof e.i === 'number' && Number.isInteger(e.i) && e.i >= 0)) return `expected i to be an array length, found ${jsonText(e.i)}`;
  if (Array.isArray(parent) ? typeof key !== 'number' || key > parent.length : typeof key !== 'string') return `cannot push at ${jsonText(k)}`;
  const arr: unknown[] = (cur as unknown[] | undefined) ?? [];
  const from = typeof e.i === 'number' ? Math.min(e.i, arr.length) : arr.length;
  let items = (e.v as unknown[] | undefined) ?? [];
  if (marked) items = items.map((it, j) => restoreMarkers(it, arr[from + j], out));
  if (k.length === 1 && k[0] === 'requests') items.forEach(slimRequest);
  else if (k.length === 3 && k[0] === 'requests' && k[2] === 'response') items.forEach(slimPart);
  const cut = arr.slice(from);
  arr.length = from;
  pushAll(arr, items);
  Object.defineProperty(parent, key, { value: arr, enumerable: true, writable: true, configurable: true });
  // Bookkeeping: requests taken away, parts replaced, fields written.
  if (k.length === 1 && k[0] === 'requests') {
    takeAway(out, cut, from, line, items);
    out.requests.length = Math.min(out.requests.length, from);
    while (out.requests.length < from) out.requests.push(fresh(line));
    for (const it of items) out.requests.push({ ...fresh(line), parts: partsOf(it).map(() => line) });
  } else if (k.length === 3 && k[0] === 'requests' && typeof k[1] === 'number' && k[2] === 'response') {
    const b = out.requests[k[1]];
    if (b) {
      b.parts.length = Math.min(b.parts.length, from);
      while (b.parts.length < from) b.parts.push(line);
      for (let j = 0; j < items.length; j++) b.parts.push(line);
    }
  } else book(out, k, line, undefined, undefined);
  return undefined;
}

/** Slim a value written whole at a request's path (see slim.ts). */
function slimAt(k: Key[], v: unknown): void {
  if (k[0] !== 'requests') return;
  if (k.length === 1 && Array.isArray(v)) v.forEach(slimRequest);
  else if (k.length === 2) slimRequest(v);
  else if (k.length === 3 && k[2] === 'result') slimResult(v);
  else if (k.length === 3 && k[2] === 'response' && Array.isArray(v)) v.forEach(slimPart);
  else if (k.length === 4 && k[2] === 'response') slimPart(v);
}

function fresh(line: number): RequestLines {
  return { line, fields: new Map(), parts: [] };
}

function partsOf(req: unknown): unknown[] {
  return isObject(req) && Array.isArray(req.response) ? req.response : [];
}

/** Requests `gone` (from index `from`) leave the session unless `kept` holds them again. */
function takeAway(out: Replay, gone: unknown[], from: number, line: number, kept: unknown[]): void {
  const still = new Set(kept.map(requestId).filter(Boolean));
  gone.forEach((request, j) => {
    const id = requestId(request);
    if (id !== '' && still.has(id)) return;
    out.removed.push({ request, lines: out.requests[from + j] ?? fresh(line), removedAt: line });
  });
}

/** Record which line wrote the value at `k`. */
function book(out: Replay, k: Key[], line: number, prev: unknown, next: unknown): void {
  if (k[0] !== 'requests') {
    if (typeof k[0] === 'string') out.sessionFields.set(k[0], line);
    return;
  }
  if (k.length === 1) {
    takeAway(out, asRequests(out.state), 0, line, Array.isArray(next) ? next : []);
    out.requests = (Array.isArray(next) ? next : []).map((r) => ({ ...fresh(line), parts: partsOf(r).map(() => line) }));
    return;
  }
  const i = k[1];
  if (typeof i !== 'number') return;
  if (k.length === 2) {
    if (prev !== undefined && requestId(prev) !== requestId(next)) takeAway(out, [prev], i, line, []);
    while (out.requests.length <= i) out.requests.push(fresh(line));
    out.requests[i] = { ...fresh(line), parts: partsOf(next).map(() => line) };
    return;
  }
  const b = out.requests[i];
  if (!b) return;
  const field = String(k[2]);
  if (field !== 'response') b.fields.set(field, line);
  else if (k.length === 3) b.parts = Array.isArray(next) ? next.map(() => line) : [];
  else if (typeof k[3] === 'number') b.parts[k[3]] = line;
}

/** The value at a path, through own properties only; a string says why it is not there. */
function walk(root: unknown, path: Key[]): JsonObject | unknown[] | string {
  let cur: unknown = root;
  for (let i = 0; i < path.length; i++) {
    const next = own(cur, path[i]);
    if (!isObject(next) && !Array.isArray(next)) return `path ${jsonText(path.slice(0, i + 1))} does not exist in the session`;
    cur = next;
  }
  return cur as JsonObject | unknown[];
}

function own(container: unknown, key: Key): unknown {
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined;
  if (isObject(container) && typeof key === 'string' && Object.hasOwn(container, key)) return container[key];
  return undefined;
}
