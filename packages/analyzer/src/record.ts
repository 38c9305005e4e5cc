import type { TimelineRow } from './row.js';
import { measureText, writeCsv, writeJson } from './text-bytes.js';

/*
 * A timeline row as the analyzer carries it from the parse jobs to the last pass: one binary
 * record holding its sort key, the few fields the last pass reads (sessions, inventory, the fill
 * from facts) and its two output lines, the timeline.jsonl line and the timeline.csv record,
 * serialized once where the row was parsed. Records travel in chunks (transferred from the
 * worker threads without a copy), are sorted in memory and spilled to runs as they are, and
 * the last pass copies their bytes to the outputs, rewriting only project_path and git_branch
 * when a session fact fills them.
 *
 * Layout (little-endian), offsets in bytes:
 *   0  u32 record length          4  f64 hi       12 f64 lo       20 f64 ord      28 u8 flags
 *   32 u32 x 9: lengths of the META fields, then json length, csv length, and the byte offsets
 *      of the project_path and git_branch values inside each line (4 per line)
 *   HEADER: the META fields' UTF-8 bytes, then the json line, then the csv record.
 * Sort key: (hi, lo, ord). A timestamp in the analyzer's format `YYYY-MM-DDTHH:MM:SS.sssZ` is
 * hi = YYYYMMDD and lo = HHMMSSsss (digit order is the string order); '' is hi = +Infinity
 * (undated rows last); any other string (a date past year 9999 written `+010000-...`) is
 * hi = -Infinity and compares by its text, which sorts before every digit.
 */

/** The fields the last pass reads besides the output lines, in record order. */
export const META = ['session_id', 'project_path', 'git_branch', 'model', 'turn_type', 'tool_name', 'tag', 'timestamp_utc', 'text'] as const;
const N_META = META.length;
const O_LEN = 0;
const O_HI = 4;
const O_LO = 12;
const O_ORD = 20;
const O_FLAGS = 28;
const O_LENS = 32;
const O_JSON = O_LENS + 4 * N_META;
const O_CSV = O_JSON + 4 * 5;
/** Bytes before the variable part. */
export const HEADER = O_CSV + 4 * 5;
const F_SEC = 1;
/** Flag on a META length: the field is UTF-16LE (it holds a lone surrogate). */
const WIDE = 0x80000000;

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const HI = [0, 1, 2, 3, 5, 6, 8, 9];
const LO = [11, 12, 14, 15, 17, 18, 20, 21, 22];
const digits = (s: string, at: readonly number[]) => at.reduce((n, i) => n * 10 + s.charCodeAt(i) - 48, 0);

/** The (hi, lo) sort key of a timestamp (see the layout note). */
export function timeKey(ts: string): [number, number] {
  if (ts === '') return [Number.POSITIVE_INFINITY, 0];
  if (!TS.test(ts)) return [Number.NEGATIVE_INFINITY, 0];
  return [digits(ts, HI), digits(ts, LO)];
}

/** One CSV field: quoted when it holds a comma, a quote, CR or LF (quotes doubled), else as is. */
function csv(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const J = JSON.stringify;

/** The parts of a row's two lines that are the same for every row of one artifact. */
export interface UnitText {
  /** `,"host":..,"user":..,"agent":..,"session_id":` */
  jsonWho: string;
  /** `,"source_file":..,"source_line":` */
  jsonFile: string;
  /** `,host,user,agent,` */
  csvWho: string;
  /** `,source_file,` */
  csvFile: string;
}

/** The constant parts of the lines of one artifact's rows. */
export function unitText(host: string, user: string, agent: string, sourceFile: string): UnitText {
  return {
    jsonWho: `,"host":${J(host)},"user":${J(user)},"agent":${J(agent)},"session_id":`,
    jsonFile: `,"source_file":${J(sourceFile)},"source_line":`,
    csvWho: `,${csv(host)},${csv(user)},${csv(agent)},`,
    csvFile: `,${csv(sourceFile)},`,
  };
}

/**
 * Tags whose text the last pass reads (sessions.ts: a permission decision's kind, a session's
 * name, a scratch directory); other rows' text rides only in their two lines.
 */
export const TEXT_TAGS: ReadonlySet<string> = new Set(['permission_decision', 'session_name', 'scratch_directory']);

/** Texts at least this long are escaped in bytes rather than as strings. */
const LONG_TEXT = 1024;

/** Chunk size records are written in (a larger record gets a chunk of its own). */
export const CHUNK_BYTES = 1 << 20;

/**
 * Serializes rows into record chunks. `ship` receives each full chunk (its own ArrayBuffer,
 * so it can be transferred to another thread).
 */
export class RecordWriter {
  private buf: Buffer;
  private pos = 0;
  /** Records in the chunk being written. */
  count = 0;
  /** A chunk was shipped since the caller last cleared this. */
  shipped = false;

  constructor(
    private readonly ship: (chunk: Buffer, records: number) => void,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {
    this.buf = Buffer.allocUnsafeSlow(chunkBytes);
  }

  /** Append one row; `u` holds its artifact's constant text. */
  add(r: TimelineRow, u: UnitText): void {
    const tag = r.tag ?? '';
    const ts = r.timestamp_utc;
    const tagText = String(tag);
    const meta = [r.session_id, r.project_path, r.git_branch, r.model, r.turn_type, r.tool_name, tagText, ts, TEXT_TAGS.has(tagText) ? r.text : ''];
    const line = r.source_line === null ? 'null' : J(r.source_line);
    const j1 = `{"timestamp_utc":${J(ts)}${u.jsonWho}${J(r.session_id)},"project_path":`;
    const jp = J(r.project_path);
    const jg = J(r.git_branch);
    const j3 = `,"model":${J(r.model)},"turn_type":${J(r.turn_type)},"tool_name":${J(r.tool_name)},"tool_use_id":${J(r.tool_use_id)},"text":`;
    const j4 = `${u.jsonFile}${line},"tag":${J(tag)}}\n`;
    const c1 = `${csv(ts)}${u.csvWho}${csv(r.session_id)},`;
    const cp = csv(r.project_path);
    const cg = csv(r.git_branch);
    const c3 = `,${csv(r.model)},${csv(r.turn_type)},${csv(r.tool_name)},${csv(r.tool_use_id)},`;
    const c4 = `${u.csvFile}${r.source_line === null ? '' : String(r.source_line)}\r\n`;
    // A long text is encoded once and escaped in bytes (text-bytes.ts); a short one as strings.
    const text = r.text;
    const bytes = text.length >= LONG_TEXT && (text as unknown as { isWellFormed(): boolean }).isWellFormed() ? measureText(text) : null;
    const jt = bytes ? '' : J(text);
    const ct = bytes ? '' : csv(text);
    let chars = 2 * N_META + j1.length + jp.length + jg.length + j3.length + j4.length + c1.length + cp.length + cg.length + c3.length + c4.length + jt.length + ct.length + 32;
    for (const m of meta) chars += m.length;
    this.ensure(HEADER + 3 * chars + (bytes ? bytes.jsonLength + bytes.csvLength : 0));
    const b = this.buf;
    const start = this.pos;
    const [hi, lo] = timeKey(ts);
    b.writeDoubleLE(hi, start + O_HI);
    b.writeDoubleLE(lo, start + O_LO);
    b.writeDoubleLE(r.ord, start + O_ORD);
    b.writeUInt32LE(r.sec ? F_SEC : 0, start + O_FLAGS);
    let p = start + HEADER;
    for (let i = 0; i < N_META; i++) {
      const m = meta[i];
      // A string with a lone surrogate is kept as UTF-16 (flagged): UTF-8 would replace it.
      const wide = m !== '' && !(m as unknown as { isWellFormed(): boolean }).isWellFormed();
      const n = m === '' ? 0 : b.write(m, p, wide ? 'utf16le' : 'utf8');
      b.writeUInt32LE(wide ? n + WIDE : n, start + O_LENS + 4 * i);
      p += n;
    }
    p = this.line(start, O_JSON, p, j1, jp, ',"git_branch":', jg, j3, (q) => (bytes ? writeJson(bytes, b, q) : q + b.write(jt, q)), j4);
    p = this.line(start, O_CSV, p, c1, cp, ',', cg, c3, (q) => (bytes ? writeCsv(bytes, b, q) : q + b.write(ct, q)), c4);
    b.writeUInt32LE(p - start, start + O_LEN);
    this.pos = p;
    this.count++;
  }

  /** Ship what is written. */
  flush(): void {
    if (this.count === 0) return;
    const full = this.buf.subarray(0, this.pos);
    const n = this.count;
    this.buf = Buffer.allocUnsafeSlow(this.chunkBytes);
    this.pos = 0;
    this.count = 0;
    this.shipped = true;
    this.ship(full, n);
  }

  /** One output line: head, project_path, between, git_branch, then the rest around the text; offsets relative to its start. */
  private line(start: number, at: number, p: number, head: string, pv: string, mid: string, gv: string, beforeText: string, text: (p: number) => number, tail: string): number {
    const b = this.buf;
    const s = p;
    p += b.write(head, p);
    b.writeUInt32LE(p - s, start + at + 4);
    p += pv === '' ? 0 : b.write(pv, p);
    b.writeUInt32LE(p - s, start + at + 8);
    p += b.write(mid, p);
    b.writeUInt32LE(p - s, start + at + 12);
    p += gv === '' ? 0 : b.write(gv, p);
    b.writeUInt32LE(p - s, start + at + 16);
    p += b.write(beforeText, p);
    p = text(p);
    p += b.write(tail, p);
    b.writeUInt32LE(p - s, start + at);
    return p;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.flush();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafeSlow(bytes);
  }
}

/** Length of the record at `off`. */
export const recordLength = (b: Buffer, off: number): number => b.readUInt32LE(off + O_LEN);
/** The record's global order. */
export const recordOrd = (b: Buffer, off: number): number => b.readDoubleLE(off + O_ORD);

/** Timeline order of two records: dated before undated, then time, then the global order. */
export function compareRecords(a: Buffer, ao: number, b: Buffer, bo: number): number {
  const ah = a.readDoubleLE(ao + O_HI);
  const bh = b.readDoubleLE(bo + O_HI);
  if (ah !== bh) return ah < bh ? -1 : 1;
  if (ah === Number.NEGATIVE_INFINITY) {
    const at = metaField(a, ao, 7);
    const bt = metaField(b, bo, 7);
    if (at !== bt) return at < bt ? -1 : 1;
  } else {
    const al = a.readDoubleLE(ao + O_LO);
    const bl = b.readDoubleLE(bo + O_LO);
    if (al !== bl) return al < bl ? -1 : 1;
  }
  return a.readDoubleLE(ao + O_ORD) - b.readDoubleLE(bo + O_ORD);
}

/** META field `i` of the record at `off`. */
export function metaField(b: Buffer, off: number, i: number): string {
  let p = off + HEADER;
  for (let k = 0; k < i; k++) p += b.readUInt32LE(off + O_LENS + 4 * k) & ~WIDE;
  return metaText(b, p, b.readUInt32LE(off + O_LENS + 4 * i));
}

function metaText(b: Buffer, p: number, len: number): string {
  if (len === 0) return '';
  return len & WIDE ? b.toString('utf16le', p, p + (len & ~WIDE)) : b.toString('utf8', p, p + len);
}

/** The last pass's view of one record: its fields, and where its two lines are. */
export interface RecordView {
  ord: number;
  sec: boolean;
  session_id: string;
  project_path: string;
  git_branch: string;
  model: string;
  turn_type: string;
  tool_name: string;
  tag: string;
  timestamp_utc: string;
  /** The row's text when its tag is one of {@link TEXT_TAGS}, else ''. */
  text: string;
  /** Absolute offsets in the chunk: line start, project_path start/end, git_branch start/end, line end. */
  json: [number, number, number, number, number, number];
  csv: [number, number, number, number, number, number];
}

/** Decode the record at `off` into `v` (reused from record to record). */
export function readRecord(b: Buffer, off: number, v: RecordView): RecordView {
  v.ord = b.readDoubleLE(off + O_ORD);
  v.sec = (b[off + O_FLAGS] & F_SEC) !== 0;
  let p = off + HEADER;
  const f: string[] = [];
  for (let i = 0; i < N_META; i++) {
    const n = b.readUInt32LE(off + O_LENS + 4 * i);
    f.push(metaText(b, p, n));
    p += n & ~WIDE;
  }
  [v.session_id, v.project_path, v.git_branch, v.model, v.turn_type, v.tool_name, v.tag, v.timestamp_utc, v.text] = f;
  p = lineAt(b, off + O_JSON, p, v.json);
  lineAt(b, off + O_CSV, p, v.csv);
  return v;
}

function lineAt(b: Buffer, at: number, p: number, out: number[]): number {
  out[0] = p;
  out[1] = p + b.readUInt32LE(at + 4);
  out[2] = p + b.readUInt32LE(at + 8);
  out[3] = p + b.readUInt32LE(at + 12);
  out[4] = p + b.readUInt32LE(at + 16);
  out[5] = p + b.readUInt32LE(at);
  return out[5];
}

/** A fresh view to decode into. */
export function newRecordView(): RecordView {
  return { ord: 0, sec: false, session_id: '', project_path: '', git_branch: '', model: '', turn_type: '', tool_name: '', tag: '', timestamp_utc: '', text: '', json: [0, 0, 0, 0, 0, 0], csv: [0, 0, 0, 0, 0, 0] };
}

/** Each record of a chunk: its offset. */
export function* recordOffsets(chunk: Buffer): Generator<number> {
  for (let off = 0; off < chunk.length; off += recordLength(chunk, off)) yield off;
}
