import type { TimelineRow } from './row.js';

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
 *   0  u32 record length    4  f64 hi    12 f64 lo    20 f64 ord    28 u32 flags (sec, wide)
 *   32 u32 bytes of the META blob, then u32 x 9: each META field's length in characters
 *   72 the json line: u32 bytes, then the byte offsets (from its start) of project_path's value,
 *      of its end, of git_branch's value's end (its start is 14 bytes on: `,"git_branch":`), and
 *      of the text's end (between the two: model, turn type, tool, tool use id and text)
 *   92 the csv record: bytes and the first three offsets (git_branch's field starts 1 byte after
 *      project_path's end), then 0
 *   HEADER: the META blob (the fields one after the other, UTF-8, or UTF-16LE when one holds a
 *      lone surrogate UTF-8 cannot carry: flag `wide`), then the json line, then the csv record.
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
const O_META = 32;
const O_CHARS = 36;
const O_JSON = O_CHARS + 4 * N_META;
const O_CSV = O_JSON + 20;
/** Bytes before the variable part. */
export const HEADER = O_CSV + 20;
const F_SEC = 1;
const F_WIDE = 2;
const JSON_MID = ',"git_branch":';

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

const CSV_SPECIAL = /[",\r\n]/;

/** One CSV field: quoted when it holds a comma, a quote, CR or LF (quotes doubled), else as is. */
function csv(s: string): string {
  return CSV_SPECIAL.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Texts at least this long are written apart from the rest of their line, in pieces. */
const LONG_TEXT = 4096;
/**
 * UTF-16 units of a long text escaped and written at a time: 64 KiB as two-byte characters, so
 * an escaped piece is a young-generation string unless escapes swell it past 128 KiB. At 1 Mi
 * units each piece was a V8 large object, mapped and faulted in page by page on its own.
 */
const PIECE = 1 << 15;

/**
 * The end of the piece of `text` starting at `i`: at most {@link PIECE} units, never between
 * the two halves of a surrogate pair, so each piece escapes and encodes as it would in the
 * whole text (a lone surrogate stays lone).
 */
function pieceEnd(text: string, i: number): number {
  const end = Math.min(text.length, i + PIECE);
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) return end - 1;
  return end;
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
  /** UTF-8 bytes of jsonWho, jsonFile and csvWho. */
  jsonWhoBytes: number;
  jsonFileBytes: number;
  csvWhoBytes: number;
}

/** The constant parts of the lines of one artifact's rows. */
export function unitText(host: string, user: string, agent: string, sourceFile: string): UnitText {
  const jsonWho = `,"host":${J(host)},"user":${J(user)},"agent":${J(agent)},"session_id":`;
  const csvWho = `,${csv(host)},${csv(user)},${csv(agent)},`;
  const jsonFile = `,"source_file":${J(sourceFile)},"source_line":`;
  return { jsonWho, jsonFile, csvWho, csvFile: `,${csv(sourceFile)},`, jsonWhoBytes: utf8Length(jsonWho), jsonFileBytes: utf8Length(jsonFile), csvWhoBytes: utf8Length(csvWho) };
}

/** Bytes of `s` in UTF-8, as Buffer.write counts them (a lone surrogate is the 3-byte U+FFFD). */
export function utf8Length(s: string): number {
  if (s.length > 256) return Buffer.byteLength(s, 'utf8');
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

const wellFormed = (s: string) => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Tags whose text the last pass reads (sessions.ts: a permission decision's kind, a session's
 * name, a scratch directory); other rows' text rides only in their two lines.
 */
export const TEXT_TAGS: ReadonlySet<string> = new Set(['permission_decision', 'session_name', 'scratch_directory']);

/** A column value with its JSON and CSV forms and their UTF-8 sizes. */
interface Memo {
  v: unknown;
  j: string;
  c: string;
  jb: number;
  cb: number;
}
const MISSING = Symbol('none yet');

/** A writer's buffer given back by {@link RecordWriter.release}, for this thread's next writer. */
let spare: Buffer | undefined;

/** The bound of a long record's room up to which this thread writes it in {@link scratch}. */
const SCRATCH_KEEP = 16 * 1024 * 1024;
/** This thread's buffer for a record larger than a chunk (kept: its pages are faulted in once). */
let scratch: Buffer | undefined;

/** Chunk size records are written in (a larger record gets a chunk of its own). */
export const CHUNK_BYTES = 1 << 20;

/**
 * Serializes rows into record chunks. `ship` receives each full chunk (its own ArrayBuffer,
 * so it can be transferred to another thread).
 */
export class RecordWriter {
  private buf: Buffer;
  /** The chunk buffer set aside while a long record is written in the scratch buffer. */
  private chunk: Buffer | undefined;
  private pos = 0;
  /** Records in the chunk being written. */
  count = 0;
  /** A chunk was shipped since the caller last cleared this. */
  shipped = false;

  constructor(
    private readonly ship: (chunk: Buffer, records: number) => void,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {
    const s = spare;
    spare = undefined;
    this.buf = s?.length === chunkBytes ? s : Buffer.allocUnsafeSlow(chunkBytes);
  }

  /**
   * The job is done and everything is shipped: the buffer goes to the thread's next writer. A
   * writer per job took a fresh 1 MiB each, and 10,000 small session files made 10 GB of them,
   * a quarter of each parse thread's time in garbage collection. (The buffer is never what was
   * shipped: flush ships a copy, or this buffer and takes a new one.)
   */
  release(): void {
    if (this.count === 0 && this.buf.length === this.chunkBytes) spare = this.buf;
  }

  // The last value of each column that repeats from row to row (session, project, branch,
  // model, turn type, tool, tool use id, tag) with its JSON and CSV forms and their UTF-8 sizes:
  // a log's rows share most of them, and escaping them anew for each row cost more than the text.
  private readonly memo: Memo[] = Array.from({ length: 8 }, () => ({ v: MISSING, j: '', c: '', jb: 0, cb: 0 }));

  private forms(i: number, v: unknown): Memo {
    const m = this.memo[i];
    if (m.v !== v) {
      m.v = v;
      m.j = J(v);
      m.c = csv(String(v));
      m.jb = utf8Length(m.j);
      m.cb = utf8Length(m.c);
    }
    return m;
  }

  /** Append one row; `u` holds its artifact's constant text. */
  add(r: TimelineRow, u: UnitText): void {
    const tag = r.tag ?? '';
    const ts = r.timestamp_utc;
    const tagText = String(tag);
    const text = r.text;
    const sid = this.forms(0, r.session_id);
    const pp = this.forms(1, r.project_path);
    const gb = this.forms(2, r.git_branch);
    const model = this.forms(3, r.model);
    const turn = this.forms(4, r.turn_type);
    const tool = this.forms(5, r.tool_name);
    const use = this.forms(6, r.tool_use_id);
    const tg = this.forms(7, tag);
    // The text rides in META only for tags the last pass reads it for.
    const textMeta = TEXT_TAGS.has(tagText) ? text : '';
    const meta = r.session_id + r.project_path + r.git_branch + r.model + r.turn_type + r.tool_name + tagText + ts + textMeta;
    const wide = !wellFormed(meta);
    const canonical = ts.length === 24 && TS.test(ts);
    const jts = canonical ? `"${ts}"` : J(ts);
    const cts = canonical ? ts : csv(ts);
    const line = r.source_line === null ? 'null' : J(r.source_line);
    const j3 = `,"model":${model.j},"turn_type":${turn.j},"tool_name":${tool.j},"tool_use_id":${use.j},"text":`;
    const j4 = `${u.jsonFile}${line},"tag":${tg.j}}\n`;
    const c3 = `,${model.c},${turn.c},${tool.c},${use.c},`;
    const c4 = `${u.csvFile}${r.source_line === null ? '' : String(r.source_line)}\r\n`;
    // A line is one string and one write; with a long text, the text is written on its own, so
    // no copy of it is made to join it to the rest (large strings are what fills the old space
    // and sets off full collections). (Escaping a long text in bytes instead of as a string was
    // measured: a third more CPU, garbage collection included.)
    const jsonHead = `{"timestamp_utc":${jts}${u.jsonWho}${sid.j},"project_path":${pp.j}${JSON_MID}${gb.j}${j3}`;
    const csvHead = `${cts}${u.csvWho}${sid.c},${pp.c},${gb.c}${c3}`;
    const long = text.length >= LONG_TEXT;
    const quoted = CSV_SPECIAL.test(text);
    const doubled = quoted && text.includes('"');
    // A long text is escaped piece by piece into the record (below): a whole escaped copy of a
    // 64 MB text beside the text itself and the parser's line would not fit the capped heap.
    const jt = long ? '' : J(text);
    const ct = long ? '' : doubled ? text.replace(/"/g, '""') : text;
    const json = long ? '' : jsonHead + jt + j4;
    const csvText = long ? '' : quoted ? `${csvHead}"${ct}"${c4}` : csvHead + ct + c4;
    // UTF-8 bytes at most: 3 per UTF-16 unit; escaped in JSON, 6 (`\u001f`); in CSV, 3 and 3 more per quote doubled.
    const textBytes = long ? 6 * text.length + 2 + (doubled ? 6 : 3) * text.length : 3 * (jt.length + ct.length);
    this.ensure(HEADER + 3 * (meta.length + jsonHead.length + j4.length + csvHead.length + c4.length + 2) + textBytes);
    const b = this.buf;
    const start = this.pos;
    if (ts === '') b.writeDoubleLE(Number.POSITIVE_INFINITY, start + O_HI);
    else if (!canonical) b.writeDoubleLE(Number.NEGATIVE_INFINITY, start + O_HI);
    else {
      b.writeDoubleLE(digits(ts, HI), start + O_HI);
      b.writeDoubleLE(digits(ts, LO), start + O_LO);
    }
    if (!canonical) b.writeDoubleLE(0, start + O_LO);
    b.writeDoubleLE(r.ord, start + O_ORD);
    b.writeUInt32LE((r.sec ? F_SEC : 0) | (wide ? F_WIDE : 0), start + O_FLAGS);
    let at = start + O_CHARS;
    for (const n of [r.session_id.length, r.project_path.length, r.git_branch.length, r.model.length, r.turn_type.length, r.tool_name.length, tagText.length, ts.length, textMeta.length]) {
      b.writeUInt32LE(n, at);
      at += 4;
    }
    let p = start + HEADER;
    const metaBytes = meta === '' ? 0 : b.write(meta, p, wide ? 'utf16le' : 'utf8');
    b.writeUInt32LE(metaBytes, start + O_META);
    p += metaBytes;
    // json line
    const jStart = p;
    if (long) {
      p += b.write(jsonHead, p);
      b[p++] = 0x22;
      for (let i = 0, e = 0; i < text.length; i = e) {
        e = pieceEnd(text, i);
        p += b.write(J(text.slice(i, e)).slice(1, -1), p);
      }
      b[p++] = 0x22;
      p += b.write(j4, p);
    } else p += b.write(json, p);
    const jp0 = 17 + (canonical ? 26 : utf8Length(jts)) + u.jsonWhoBytes + sid.jb + 16;
    // The tail after the text: source file and line, `,"tag":`, the tag, `}` and the newline.
    const tail = u.jsonFileBytes + line.length + 7 + tg.jb + 2;
    this.offsets(start + O_JSON, p - jStart, jp0, jp0 + pp.jb, jp0 + pp.jb + JSON_MID.length + gb.jb, p - jStart - tail);
    // csv record
    const cStart = p;
    if (long) {
      p += b.write(csvHead, p);
      if (quoted) b[p++] = 0x22;
      for (let i = 0, e = 0; i < text.length; i = e) {
        e = pieceEnd(text, i);
        const piece = text.slice(i, e);
        p += b.write(doubled ? piece.replace(/"/g, '""') : piece, p);
      }
      if (quoted) b[p++] = 0x22;
      p += b.write(c4, p);
    } else p += b.write(csvText, p);
    const cp0 = (canonical ? 24 : utf8Length(cts)) + u.csvWhoBytes + sid.cb + 1;
    this.offsets(start + O_CSV, p - cStart, cp0, cp0 + pp.cb, cp0 + pp.cb + 1 + gb.cb, 0);
    b.writeUInt32LE(p - start, start + O_LEN);
    this.pos = p;
    this.count++;
    if (b === scratch) this.flush();
  }

  private offsets(at: number, total: number, p0: number, p1: number, g1: number, textEnd: number): void {
    const b = this.buf;
    b.writeUInt32LE(total, at);
    b.writeUInt32LE(p0, at + 4);
    b.writeUInt32LE(p1, at + 8);
    b.writeUInt32LE(g1, at + 12);
    b.writeUInt32LE(textEnd, at + 16);
  }

  /** Ship what is written. */
  flush(): void {
    if (this.count === 0) return;
    const n = this.count;
    let full: Buffer;
    if (this.buf === scratch) {
      // A long record, alone: shipped as an exact copy, the scratch kept (see ensure).
      full = Buffer.allocUnsafeSlow(this.pos);
      this.buf.copy(full, 0, 0, this.pos);
      this.buf = this.chunk ?? Buffer.allocUnsafeSlow(this.chunkBytes);
      this.chunk = undefined;
    } else if (this.pos < this.chunkBytes >> 1 && this.buf.length === this.chunkBytes) {
      // A job's last chunk is often a few records: shipped as an exact copy, the 1 MiB buffer
      // kept for the next job. Shipped whole, each held 1 MiB that the record store counted as
      // its few used bytes, so its in-memory rows held up to 30 times its limit (876 MiB of
      // buffers for 32 MiB of records at 1 GiB), and V8 counted it all as external memory.
      full = Buffer.allocUnsafeSlow(this.pos);
      this.buf.copy(full, 0, 0, this.pos);
    } else {
      full = this.buf.subarray(0, this.pos);
      this.buf = Buffer.allocUnsafeSlow(this.chunkBytes);
    }
    this.pos = 0;
    this.count = 0;
    this.shipped = true;
    this.ship(full, n);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.flush();
    if (bytes <= this.buf.length) return;
    if (bytes > SCRATCH_KEEP) {
      this.buf = Buffer.allocUnsafeSlow(bytes);
      return;
    }
    // The room asked for is a bound (up to 12 bytes a character of text), often past malloc's
    // mmap threshold: a buffer of its own for each long record was fresh pages, faulted in as
    // the record was written (16,000 faults at 160 MiB). The thread's scratch is written again
    // instead, and only the record's real bytes are copied out (add ships it at once).
    // Grown by doubling, so a run of ever longer records does not take fresh pages for each.
    if (scratch === undefined || scratch.length < bytes) scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_KEEP, Math.max(bytes, 2 * (scratch?.length ?? 0))));
    this.chunk = this.buf;
    this.buf = scratch;
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
  const meta = metaBlob(b, off);
  let at = 0;
  for (let k = 0; k < i; k++) at += b.readUInt32LE(off + O_CHARS + 4 * k);
  return meta.slice(at, at + b.readUInt32LE(off + O_CHARS + 4 * i));
}

function metaBlob(b: Buffer, off: number): string {
  const n = b.readUInt32LE(off + O_META);
  if (n === 0) return '';
  const p = off + HEADER;
  return b.toString(b.readUInt32LE(off + O_FLAGS) & F_WIDE ? 'utf16le' : 'utf8', p, p + n);
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
  /** Where the json line's model, turn type, tool, tool use id and text end (they start at json[4]). */
  contentEnd: number;
}

/** Decode the record at `off` into `v` (reused from record to record). */
export function readRecord(b: Buffer, off: number, v: RecordView): RecordView {
  v.ord = b.readDoubleLE(off + O_ORD);
  v.sec = (b.readUInt32LE(off + O_FLAGS) & F_SEC) !== 0;
  const meta = metaBlob(b, off);
  const f: string[] = [];
  let at = 0;
  for (let i = 0; i < N_META; i++) {
    const n = b.readUInt32LE(off + O_CHARS + 4 * i);
    f.push(n === 0 ? '' : meta.slice(at, at + n));
    at += n;
  }
  [v.session_id, v.project_path, v.git_branch, v.model, v.turn_type, v.tool_name, v.tag, v.timestamp_utc, v.text] = f;
  const p = off + HEADER + b.readUInt32LE(off + O_META);
  const q = lineAt(b, off + O_JSON, p, JSON_MID.length, v.json);
  v.contentEnd = p + b.readUInt32LE(off + O_JSON + 16);
  lineAt(b, off + O_CSV, q, 1, v.csv);
  return v;
}

/** A line's absolute offsets (see {@link RecordView}); returns its end. */
function lineAt(b: Buffer, at: number, p: number, mid: number, out: number[]): number {
  out[0] = p;
  out[1] = p + b.readUInt32LE(at + 4);
  out[2] = p + b.readUInt32LE(at + 8);
  out[3] = out[2] + mid;
  out[4] = p + b.readUInt32LE(at + 12);
  out[5] = p + b.readUInt32LE(at);
  return out[5];
}

/** A fresh view to decode into. */
export function newRecordView(): RecordView {
  return { ord: 0, sec: false, session_id: '', project_path: '', git_branch: '', model: '', turn_type: '', tool_name: '', tag: '', timestamp_utc: '', text: '', json: [0, 0, 0, 0, 0, 0], csv: [0, 0, 0, 0, 0, 0], contentEnd: 0 };
}

/** Each record of a chunk: its offset. */
export function* recordOffsets(chunk: Buffer): Generator<number> {
  for (let off = 0; off < chunk.length; off += recordLength(chunk, off)) yield off;
}
