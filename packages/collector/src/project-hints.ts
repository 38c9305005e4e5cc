import { open } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { ProjectHint } from './catalog.js';
import { SAFE_OPEN_FLAGS } from './read-file.js';

/** How much of a hint file is read (bounded: hints sit near the top of the files that hold them). */
export const HINT_MAX_BYTES = 1024 * 1024;

/** Read the first maxBytes of a file, read-only, without following links; undefined if it cannot be read. */
export async function readHead(fsPath: Buffer | string, maxBytes: number): Promise<string | undefined> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(fsPath, SAFE_OPEN_FLAGS);
    const buf = Buffer.alloc(maxBytes);
    let got = 0;
    while (got < maxBytes) {
      const { bytesRead } = await fh.read(buf, got, maxBytes - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => {});
  }
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
    if (hint.format === 'yaml') return pick(hint, parseYaml(body, { maxAliasCount: 10 }));
  } catch {
    return [];
  }
  const out: string[] = [];
  const lines = body.split('\n').slice(0, hint.max_lines ?? 1);
  for (const line of lines) {
    try {
      out.push(...pick(hint, JSON.parse(line)));
    } catch {
      // a bad line is skipped; the analyzer reports it
    }
  }
  return out;
}
