import type { FileHandle } from 'node:fs/promises';
import { openEvidence } from './read-file.js';

const CHUNK = 256 * 1024;

/**
 * Read a whole file of at most maxBytes, read-only, without following links; `tooLarge` when it
 * is bigger (nothing is read then), undefined when it cannot be opened.
 */
export async function readBounded(fsPath: Buffer | string, maxBytes: number): Promise<{ text?: string; tooLarge?: number } | undefined> {
  let fh: FileHandle | undefined;
  try {
    fh = await openEvidence(fsPath);
    const size = Number((await fh.stat()).size);
    if (size > maxBytes) return { tooLarge: size };
    // Allocated to the size seen, not to the bound: a file that grew meanwhile is cut there.
    const buf = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await fh.read(buf, got, size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { text: buf.subarray(0, got).toString('utf8') };
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => {});
  }
}

/**
 * Stream a file line by line (read-only, no link followed), calling `onLine` for each line of at
 * most maxLineBytes and counting the longer ones, which are skipped without being held; stops
 * after `maxLines` lines, or after `maxBytes` bytes (`cut`: the line being read then is dropped).
 * With `needles`, a line read whole from one chunk that holds none of them is counted but not
 * decoded (a caller that would drop it anyway saves the copy). Undefined when the file cannot be opened.
 */
export async function forEachLine(
  fsPath: Buffer | string,
  maxLines: number,
  maxLineBytes: number,
  onLine: (line: string) => void,
  maxBytes = Number.POSITIVE_INFINITY,
  needles: readonly Buffer[] = [],
): Promise<{ lines: number; overlong: number; cut?: boolean } | undefined> {
  let fh: FileHandle | undefined;
  try {
    fh = await openEvidence(fsPath);
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(CHUNK);
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  const acc: { lines: number; overlong: number; cut?: boolean } = { lines: 0, overlong: 0 };
  const end = () => {
    acc.lines += 1;
    if (overlong) acc.overlong += 1;
    else onLine(Buffer.concat(parts).toString('utf8'));
    parts = [];
    held = 0;
    overlong = false;
  };
  try {
    let pos = 0;
    while (acc.lines < maxLines) {
      if (pos >= maxBytes) {
        acc.cut = true;
        return acc;
      }
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, maxBytes - pos), pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const chunk = buf.subarray(0, bytesRead);
      // Next offset of each needle in this chunk, moved on only when a line passes it: one scan per chunk.
      const next = needles.map(() => -2);
      const holds = (a: number, b: number): boolean => {
        for (let i = 0; i < needles.length; i++) {
          if (next[i] !== -1 && next[i] < a) next[i] = chunk.indexOf(needles[i], a);
          if (next[i] >= a && next[i] + needles[i].length <= b) return true;
        }
        return false;
      };
      let from = 0;
      while (from < bytesRead && acc.lines < maxLines) {
        const nl = buf.indexOf(0x0a, from);
        const stop = nl < 0 || nl >= bytesRead ? bytesRead : nl;
        if (needles.length > 0 && held === 0 && !overlong && stop < bytesRead && !holds(from, stop)) {
          acc.lines += 1;
          from = stop + 1;
          continue;
        }
        if (!overlong) {
          if (held + stop - from > maxLineBytes) {
            overlong = true;
            parts = [];
            // The last line wanted is too long: its end need not be read (a 64 MB first line).
            if (acc.lines + 1 >= maxLines) {
              end();
              return acc;
            }
          } else {
            parts.push(Buffer.from(buf.subarray(from, stop)));
            held += stop - from;
          }
        }
        if (stop === bytesRead) break;
        end();
        from = stop + 1;
      }
    }
    if ((held > 0 || overlong) && acc.lines < maxLines) end();
    return acc;
  } catch {
    return acc;
  } finally {
    await fh.close().catch(() => {});
  }
}
