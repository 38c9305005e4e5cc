import type { FileHandle } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { ProjectHint } from './catalog.js';
import { openEvidence } from './read-file.js';

/** How much of a json/yaml hint file is read: a `.claude.json` with legacy history runs to tens of MB. */
export const HINT_MAX_DOC_BYTES = 64 * 1024 * 1024;

/** A jsonl hint line longer than this is skipped unparsed (memory holds one line at a time). */
export const HINT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const CHUNK = 256 * 1024;

/** What reading one hint file gave: the recorded roots, or why it gave none. */
export interface HintRead {
  values: string[];
  /** Why a readable file gave less than all it holds (a collection note), else undefined. */
  problem?: string;
}

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
 * after `maxLines` lines. Undefined when the file cannot be opened.
 */
export async function forEachLine(
  fsPath: Buffer | string,
  maxLines: number,
  maxLineBytes: number,
  onLine: (line: string) => void,
): Promise<{ lines: number; overlong: number } | undefined> {
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
  const acc = { lines: 0, overlong: 0 };
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
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      let from = 0;
      while (from < bytesRead && acc.lines < maxLines) {
        const nl = buf.indexOf(0x0a, from);
        const stop = nl < 0 || nl >= bytesRead ? bytesRead : nl;
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

/** The recorded project roots in one hint file, read with the bounds above. */
export async function readHintValues(hint: ProjectHint, fsPath: Buffer | string): Promise<HintRead> {
  if (hint.format !== 'jsonl') {
    const r = await readBounded(fsPath, HINT_MAX_DOC_BYTES);
    if (!r) return { values: [] };
    if (r.tooLarge !== undefined) {
      return { values: [], problem: `is ${r.tooLarge} bytes, over the ${HINT_MAX_DOC_BYTES}-byte bound for ${hint.format} hints: not read for project roots` };
    }
    return { values: hintValues(hint, r.text ?? '') };
  }
  const values: string[] = [];
  const max = hint.max_lines === 'all' ? Number.POSITIVE_INFINITY : (hint.max_lines ?? 1);
  let first = true;
  const r = await forEachLine(fsPath, max, HINT_MAX_LINE_BYTES, (line) => {
    values.push(...lineValues(hint, first ? line.replace(/^\uFEFF/, '') : line));
    first = false;
  });
  if (!r) return { values };
  return r.overlong > 0
    ? { values, problem: `${r.overlong} lines longer than ${HINT_MAX_LINE_BYTES} bytes were skipped when looking for project roots` }
    : { values };
}

/** Strip `//` and `/* *\/` comments outside strings (JSONC, as config.json and settings.json are). */
export function stripJsonComments(text: string): string {
  let out = '';
  let inStr = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inStr) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inStr = false;
    } else if (c === '"') {
      inStr = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) break;
      i += 1;
    } else out += c;
  }
  return out;
}

/** A value that is serialized JSON (the stringified event log) is decoded first. */
function unwrap(v: unknown): unknown {
  if (typeof v === 'string' && /^\s*[{[]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

/** The value at a dotted path, decoding serialized JSON on the way. */
export function atPath(obj: unknown, dotted: string): unknown {
  let cur = unwrap(obj);
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = unwrap((cur as Record<string, unknown>)[key]);
  }
  return cur;
}

/** True for an absolute path as recorded on any OS (`/x`, `C:\x`, `C:/x`). */
export function looksAbsolute(p: string): boolean {
  return (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) && !p.includes('\0') && p.length < 4096;
}

function pick(hint: ProjectHint, doc: unknown): string[] {
  const v = hint.path !== undefined ? atPath(doc, hint.path) : atPath(doc, hint.keys_of!);
  const vals = hint.path !== undefined ? [v] : v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  return vals.filter((x): x is string => typeof x === 'string' && looksAbsolute(x));
}

/** The project paths a hint finds in a file's text; bad JSON/YAML gives none. */
export function hintValues(hint: ProjectHint, text: string): string[] {
  const body = text.replace(/^\uFEFF/, '');
  try {
    if (hint.format === 'json') return pick(hint, JSON.parse(stripJsonComments(body)));
    if (hint.format === 'yaml') return pick(hint, parseYaml(body, { maxAliasCount: 10, uniqueKeys: false }));
  } catch {
    return [];
  }
  const out: string[] = [];
  const lines = body.split('\n');
  const max = hint.max_lines === 'all' ? lines.length : (hint.max_lines ?? 1);
  for (const line of lines.slice(0, max)) out.push(...lineValues(hint, line));
  return out;
}

function lineValues(hint: ProjectHint, line: string): string[] {
  if (line.trim() === '') return [];
  try {
    return pick(hint, JSON.parse(line));
  } catch {
    // a bad line is skipped; the analyzer reports it
    return [];
  }
}
