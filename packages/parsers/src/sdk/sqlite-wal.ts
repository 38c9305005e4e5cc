/**
 * The frames of a SQLite write-ahead log, read from its bytes (sqlite.org/fileformat2.html, "The
 * WAL File Format"): which frame holds each page's live version, as SQLite would decide without
 * its -shm index (frames of the header's salts whose running checksum holds, up to the last
 * commit), and every other frame, which holds an older or never-committed version of its page.
 */

/** One whole frame of the log. */
export interface WalFrame {
  page: number;
  data: Buffer;
  /** Index of the last frame of this frame's transaction (the next commit frame, else the last frame). */
  txEnd: number;
}

/** The frames, the live one of each page (frame index by page number), and what did not hold. */
export interface WalFrames {
  frames: WalFrame[];
  live: Map<number, number>;
  notes: string[];
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** SQLite's WAL checksum over `b[from, to)` (8 bytes at a time), continuing from `s`. */
function checksum(b: Buffer, from: number, to: number, s: [number, number], bigEndian: boolean): [number, number] {
  let [s0, s1] = s;
  for (let i = from; i + 8 <= to; i += 8) {
    const x0 = bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i);
    const x1 = bigEndian ? b.readUInt32BE(i + 4) : b.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** The frames of `wal` for a database of `pageSize` bytes a page; a damaged or foreign log gives none and a note. */
export function walFrames(wal: Buffer, pageSize: number): WalFrames {
  const none = (note: string): WalFrames => ({ frames: [], live: new Map(), notes: [note] });
  if (wal.length < WAL_HEADER) return none(wal.length === 0 ? 'the WAL is empty' : 'the WAL is shorter than its header');
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return none('the WAL does not start with its magic number');
  if (wal.readUInt32BE(8) !== pageSize) return none(`the WAL's page size ${wal.readUInt32BE(8)} is not the database's ${pageSize}`);
  const bigEndian = magic === 0x377f0683;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let sum = checksum(wal, 0, 24, [0, 0], bigEndian);
  const headerOk = sum[0] === wal.readUInt32BE(24) && sum[1] === wal.readUInt32BE(28);
  const frames: WalFrame[] = [];
  const commits: boolean[] = [];
  let valid = headerOk;
  let lastCommit = -1;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    const page = wal.readUInt32BE(at);
    const data = wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize);
    const commit = wal.readUInt32BE(at + 4) !== 0;
    if (valid) {
      // A frame is part of the log only while every frame before it was, with the header's salts and the running checksum.
      valid = wal.readUInt32BE(at + 8) === salt1 && wal.readUInt32BE(at + 12) === salt2;
      if (valid) {
        sum = checksum(wal, at, at + 8, sum, bigEndian);
        sum = checksum(wal, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, sum, bigEndian);
        valid = sum[0] === wal.readUInt32BE(at + 16) && sum[1] === wal.readUInt32BE(at + 20);
      }
      if (valid && commit) lastCommit = frames.length;
    }
    frames.push({ page, data, txEnd: 0 });
    commits.push(commit);
  }
  let end = frames.length - 1;
  for (let i = frames.length - 1; i >= 0; i--) {
    if (commits[i]) end = i;
    frames[i].txEnd = end;
  }
  const live = new Map<number, number>();
  for (let i = 0; i <= lastCommit; i++) if (frames[i].page > 0) live.set(frames[i].page, i);
  const notes = headerOk ? [] : ["the WAL header's checksum does not hold: none of its frames is taken as live"];
  return { frames, live, notes };
}
