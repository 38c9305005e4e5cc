import { type FileHandle, open } from 'node:fs/promises';
import type Database from 'better-sqlite3';
import type { DuplicateRecord } from './sink.js';

/**
 * duplicates.jsonl lines at least this long are not read whole: a duplicated 64 MB prompt makes
 * a line of three rows (dropped, kept, paired with) of 64 MB each, and that line as one string,
 * parsed, then each row stringified again, ran the thread out of its heap (issue 12). Such a line
 * is read a member at a time from the file, so the largest single row bounds the memory.
 */
export const WHOLE_LINE_BYTES = 4 << 20;

const READ_BYTES = 1 << 20;

/** A value as a TEXT column: a string as is, anything else as its JSON; null when absent. */
export const str = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));
/** A value as an INTEGER column: a number, a boolean as 0/1, else null. */
export const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null);

/** The statement the rows go in by, and the two that complete a long line's row. */
interface Statements {
  insert: Database.Statement;
  kept: Database.Statement;
  paired: Database.Statement;
}

/** duplicates.jsonl (complete before any sink ends) into the `duplicates` table, a line at a time. */
export async function loadDuplicates(db: Database.Database, path: string, wholeLineBytes = WHOLE_LINE_BYTES): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const st: Statements = {
    insert: db.prepare('INSERT INTO duplicates (agent, session_id, source_file, source_line, kept_source_file, kept_source_line, dropped, kept, paired_with) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    kept: db.prepare('UPDATE duplicates SET kept = ? WHERE id = ?'),
    paired: db.prepare('UPDATE duplicates SET paired_with = ? WHERE id = ?'),
  };
  try {
    let parts: Buffer[] = [];
    let held = 0;
    // Where the line being read began, and whether it is too long to hold.
    let lineStart = 0;
    let long = false;
    let pos = 0;
    const buf = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, READ_BYTES, pos);
      if (bytesRead === 0) break;
      let from = 0;
      for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < bytesRead; nl = buf.indexOf(10, from)) {
        if (long || held + nl - from >= wholeLineBytes) await longLine(fh, st, lineStart, pos + nl);
        else {
          parts.push(Buffer.from(buf.subarray(from, nl)));
          shortLine(st, Buffer.concat(parts).toString('utf8'));
        }
        parts = [];
        held = 0;
        long = false;
        from = nl + 1;
        lineStart = pos + from;
      }
      if (!long && from < bytesRead) {
        held += bytesRead - from;
        if (held >= wholeLineBytes) {
          long = true;
          parts = [];
        } else parts.push(Buffer.from(buf.subarray(from, bytesRead)));
      }
      pos += bytesRead;
    }
    // The writer ends every line; a last line without one is still a line.
    if (long || held >= wholeLineBytes) await longLine(fh, st, lineStart, pos);
    else if (held > 0) shortLine(st, Buffer.concat(parts).toString('utf8'));
  } finally {
    await fh.close();
  }
}

function shortLine(st: Statements, line: string): void {
  if (line.trim() === '') return;
  const d = JSON.parse(line) as DuplicateRecord;
  st.insert.run(str(d.dropped?.agent), str(d.dropped?.session_id), str(d.dropped?.source_file), num(d.dropped?.source_line), str(d.kept?.source_file), num(d.kept?.source_line), str(d.dropped), str(d.kept), str(d.paired_with));
}

/**
 * One long line, `[start, end)` of the file: the three rows' ranges, then the few columns read
 * from each row's own members, then each row's JSON in its turn (a row is its timeline.jsonl
 * line, the same text JSON.stringify gives of it parsed).
 */
async function longLine(fh: FileHandle, st: Statements, start: number, end: number): Promise<void> {
  const top = await memberRanges(fh, start, end);
  // A row's members are found in one scan of it; only the wanted ones are then read.
  const fieldsOf = async (row: Range | undefined, keys: string[]): Promise<unknown[]> => {
    const members = row ? await memberRanges(fh, row[0], row[1]) : undefined;
    const values: unknown[] = [];
    for (const k of keys) {
      const r = members?.get(k);
      values.push(r ? JSON.parse(await text(fh, r)) : undefined);
    }
    return values;
  };
  const [dropped, kept, paired] = [top.get('dropped'), top.get('kept'), top.get('paired_with')];
  const [agent, session, file, line] = await fieldsOf(dropped, ['agent', 'session_id', 'source_file', 'source_line']);
  const [keptFile, keptLine] = await fieldsOf(kept, ['source_file', 'source_line']);
  const json = async (r: Range | undefined): Promise<string | null> => {
    const t = r ? await text(fh, r) : 'null';
    return t === 'null' ? null : t;
  };
  const { lastInsertRowid } = st.insert.run(str(agent), str(session), str(file), num(line), str(keptFile), num(keptLine), await json(dropped), null, null);
  st.kept.run(await json(kept), lastInsertRowid);
  st.paired.run(await json(paired), lastInsertRowid);
}

type Range = [number, number];

async function text(fh: FileHandle, [s, e]: Range): Promise<string> {
  const b = Buffer.allocUnsafe(e - s);
  for (let got = 0; got < b.length; ) {
    const { bytesRead } = await fh.read(b, got, b.length - got, s + got);
    if (bytesRead === 0) throw new Error(`duplicates.jsonl ended at byte ${s + got}, inside a row that runs to ${e}`);
    got += bytesRead;
  }
  return b.toString('utf8').trim();
}

/** The byte ranges of the members of the JSON object at `[start, end)`, by key, read in pieces. */
export async function memberRanges(fh: FileHandle, start: number, end: number): Promise<Map<string, Range>> {
  const out = new Map<string, Range>();
  let depth = 0;
  let inStr = false;
  let esc = false;
  let expectKey = false;
  let keyBytes: number[] | null = null;
  let key: string | null = null;
  let valueStart = -1;
  const buf = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, end - start)));
  for (let base = start; base < end; ) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - base), base);
    if (bytesRead === 0) break;
    for (let i = 0; i < bytesRead; i++) {
      const c = buf[i];
      if (inStr) {
        if (esc) esc = false;
        else if (c === 0x5c) esc = true;
        else if (c === 0x22) {
          inStr = false;
          if (keyBytes) {
            key = Buffer.from(keyBytes).toString('utf8');
            keyBytes = null;
          }
          continue;
        }
        if (keyBytes && keyBytes.length < 256) keyBytes.push(c);
        continue;
      }
      const atValue = depth === 1 && key !== null && valueStart < 0;
      if (c === 0x22) {
        inStr = true;
        if (depth === 1 && expectKey) {
          keyBytes = [];
          expectKey = false;
        } else if (atValue) valueStart = base + i;
      } else if (c === 0x7b || c === 0x5b) {
        if (depth === 0) expectKey = true;
        else if (atValue) valueStart = base + i;
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          if (key !== null && valueStart >= 0) out.set(key, [valueStart, base + i]);
          return out;
        }
      } else if (depth === 1 && c === 0x2c) {
        if (key !== null && valueStart >= 0) out.set(key, [valueStart, base + i]);
        key = null;
        valueStart = -1;
        expectKey = true;
      } else if (atValue && c !== 0x3a && c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) valueStart = base + i;
    }
    base += bytesRead;
  }
  return out;
}
