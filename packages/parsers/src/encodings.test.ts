import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInPlugins } from './index.js';
import type { Parser, Row } from './sdk/types.js';
import { parseFile } from './test-helpers/parse-file.js';

// A file a person saved on Windows may be UTF-16 with a byte order mark (Windows PowerShell 5's
// `>` and Out-File, Notepad's "Unicode"), or UTF-8 with one. Read as UTF-8, a UTF-16 file lost its
// content: JSON and YAML readers refused it, and text parsers (Aider's config, Goose's and
// Continue's YAML, process logs) gave no row at all. Every parser, over every text file of the
// fixture homes it wants, must give the same rows whichever of these encodings the file is in.

const HOMES = fileURLToPath(new URL('../../../fixtures/homes/', import.meta.url));
const parsers = builtInPlugins.flatMap((p) => p.parsers);

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    const st = lstatSync(p);
    if (st.isDirectory()) yield* files(p);
    else if (st.isFile()) yield p;
  }
}

interface Pair {
  parser: Parser;
  home: string;
  rel: string;
  bytes: Buffer;
}

/** Every (parser, text file) pair of the fixture homes: no SQLite, no NUL byte, under 1 MB. */
function pairs(): Pair[] {
  const out: Pair[] = [];
  for (const home of readdirSync(HOMES).map((h) => join(HOMES, h))) {
    if (!lstatSync(home).isDirectory()) continue;
    for (const f of files(home)) {
      const rel = relative(home, f).split(sep).join('/');
      const bytes = readFileSync(f);
      if (bytes.length > 1_000_000 || bytes.includes(0) || bytes.subarray(0, 16).toString('latin1').startsWith('SQLite format 3')) continue;
      for (const parser of parsers) if (parser.wants(rel)) out.push({ parser, home, rel, bytes });
    }
  }
  return out;
}

const root = mkdtempSync(join(tmpdir(), 'aitrail-enc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The rows of `bytes` parsed as the file `rel`, with a fixed mtime (rows carry it). */
async function rowsOf(p: Pair, bytes: Buffer, slot: string): Promise<Row[]> {
  return (await parseFile(p.parser, join(root, slot), p.rel, bytes, 1_700_000_000)).rows;
}

const ENCODINGS: [string, (utf8: Buffer) => Buffer][] = [
  ['UTF-8 with a byte order mark', (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
  ['UTF-16LE with a byte order mark', (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')])],
  ['UTF-16BE with a byte order mark', (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]).swap16()],
];

describe('a text file saved in another encoding gives the same rows', () => {
  const all = pairs();
  it('finds the fixture files the parsers read', () => {
    // Dozens of parsers over the homes; a drop to a handful means the walk broke, not the parsers.
    expect(all.length).toBeGreaterThan(200);
    expect(new Set(all.map((p) => p.parser.agent)).size).toBeGreaterThan(15);
  });
  for (const [name, encode] of ENCODINGS) {
    it(name, async () => {
      const differ: string[] = [];
      let compared = 0;
      for (const [i, p] of all.entries()) {
        // A file already starting with a mark, or not valid UTF-8, has no one re-encoding.
        if (p.bytes[0] === 0xef || p.bytes[0] === 0xff || p.bytes[0] === 0xfe || !Buffer.from(p.bytes.toString('utf8'), 'utf8').equals(p.bytes)) continue;
        const want = await rowsOf(p, p.bytes, `${i}a`);
        const got = await rowsOf(p, encode(p.bytes), `${i}b`);
        compared++;
        if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${p.parser.agent}/${p.parser.name} ${p.rel}: ${want.length} rows as UTF-8, ${got.length} re-encoded`);
      }
      expect(differ).toEqual([]);
      expect(compared).toBeGreaterThan(200);
    });
  }
});
