import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HintRule } from './catalog.js';
import { forEachLine, HINT_MAX_CONFIG_BYTES, HINT_MAX_LINE_BYTES, hintValues, lineKeys, readBounded, readHintValues, stripJsonComments } from './project-hints.js';

const T = mkdtempSync(join(tmpdir(), 'aitrail-hints-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));
const file = (name: string, text: string | Buffer) => {
  const p = join(T, name);
  writeFileSync(p, text);
  return p;
};

const projectsOf: HintRule = { format: 'json', keys_of: 'projects' };
const historyAll: HintRule = { format: 'jsonl', path: ['project'], max_lines: 'all' };

describe('project hints', () => {
  it('reads a .claude.json far over the old 1 MiB head (legacy history before the projects)', async () => {
    const history = Array.from({ length: 30_000 }, (_, i) => ({ display: `prompt ${i} ${'x'.repeat(60)}` }));
    const text = JSON.stringify({ projects: { '/srv/a': { history }, 'C:\\Users\\me\\b': {} } });
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(await readHintValues(projectsOf, file('big.json', text))).toEqual({ values: ['/srv/a', 'C:\\Users\\me\\b'], remote: [] });
  });

  it('says so, and reads nothing, when a json file is over the bound', async () => {
    const p = file('over.json', '{"projects":{"/srv/a":{}}}');
    expect(await readBounded(p, 10)).toEqual({ tooLarge: 26 });
    expect(await readBounded(p, 26)).toEqual({ text: '{"projects":{"/srv/a":{}}}' });
    expect(await readBounded(join(T, 'missing.json'), 10)).toBeUndefined();
  });

  it('reads a yaml or toml hint up to 1 MiB, and past that says so and reads nothing (their parsers hold ~25 bytes a byte)', async () => {
    const workspace: HintRule = { format: 'yaml', path: ['cwd'] };
    const config: HintRule = { format: 'toml', keys_of: 'projects' };
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: ${'v'.repeat(80)}`).join('\n');
    expect(await readHintValues(workspace, file('small.yaml', `cwd: /srv/w\n${filler(1000)}\n`))).toEqual({ values: ['/srv/w'], remote: [] });
    const big = `cwd: /srv/w\n${filler(60_000)}\n`;
    expect(big.length).toBeGreaterThan(HINT_MAX_CONFIG_BYTES);
    expect(await readHintValues(workspace, file('big.yaml', big))).toEqual({ values: [], remote: [], problem: `is ${big.length} bytes, over the ${HINT_MAX_CONFIG_BYTES}-byte bound for yaml hints: not read for project roots` });
    const toml = Array.from({ length: 120_000 }, (_, i) => `[projects."/srv/q${i}"]\ntrust_level = "trusted"\n`).join('\n');
    expect(toml.length).toBeGreaterThan(HINT_MAX_CONFIG_BYTES);
    expect((await readHintValues(config, file('config.toml', toml))).problem).toBe(`is ${toml.length} bytes, over the ${HINT_MAX_CONFIG_BYTES}-byte bound for toml hints: not read for project roots`);
  });

  it('a yaml hint nested a million deep is refused before the YAML library sees it (it took 850 MB of heap)', async () => {
    const workspace: HintRule = { format: 'yaml', path: ['cwd'] };
    expect(await readHintValues(workspace, file('deep.yaml', '['.repeat(1_000_000)))).toEqual({ values: [], remote: [], problem: 'cannot be parsed as yaml: no project roots read from it' });
    // 250 KB of quotes: each a parse error, and prettified errors walked the text for each (39 s).
    expect((await readHintValues(workspace, file('quotes.yaml', '"'.repeat(250_000)))).problem).toBe('cannot be parsed as yaml: no project roots read from it');
  });

  it('streams a whole history.jsonl with max_lines all: the newest projects at the end are found', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => JSON.stringify({ display: `p${i}`, project: i < 39_999 ? '/srv/old' : '/srv/newest' }));
    const p = file('history.jsonl', `${lines.join('\n')}\n`);
    const r = await readHintValues(historyAll, p);
    expect(r.problem).toBeUndefined();
    // Every distinct value, once each, in the order first seen.
    expect(r.values).toEqual(['/srv/old', '/srv/newest']);
    // A count stops there.
    expect((await readHintValues({ ...historyAll, max_lines: 2 }, p)).values).toEqual(['/srv/old']);
  });

  it('parses only the jsonl lines that hold the last key of a selector, found in string-encoded records too', async () => {
    expect(lineKeys({ format: 'jsonl', path: ['payload.cwd'] })).toEqual(['cwd']);
    expect(lineKeys({ format: 'jsonl', path: ['data.context.cwd', 'data.cwd'] })).toEqual(['cwd', 'cwd']);
    expect(lineKeys({ format: 'jsonl', path: ['folders[]'] })).toEqual(['folders']);
    // A selector that ends without a plain key: every line is parsed.
    expect(lineKeys({ format: 'jsonl', path: ['payload.cwd', 'projects.*'] })).toEqual([]);
    expect(lineKeys({ format: 'jsonl', keys_of: '.' })).toEqual([]);
    const rule: HintRule = { format: 'jsonl', path: ['data.context.cwd', 'payload.cwd'], max_lines: 'all' };
    const lines = [
      JSON.stringify({ type: 'response_item', payload: { text: 'no key here' } }),
      JSON.stringify({ type: 'session_meta', payload: { cwd: '/srv/plain' } }),
      // The stringified event log: data.context is a JSON string, its key escaped within it.
      JSON.stringify({ type: 'session.start', data: { context: JSON.stringify({ cwd: '/srv/encoded' }) } }),
      'not json at all, and no key',
    ];
    const text = `${lines.join('\n')}\n`;
    expect(hintValues(rule, text)).toEqual(['/srv/plain', '/srv/encoded']);
    expect((await readHintValues(rule, file('keys.jsonl', text))).values).toEqual(['/srv/plain', '/srv/encoded']);
  });

  it('skips a line over the per-line cap without holding it, and names how many', async () => {
    const long = JSON.stringify({ project: '/srv/huge', display: 'y'.repeat(HINT_MAX_LINE_BYTES + 10) });
    const p = file('long.jsonl', `\uFEFF{"project":"/srv/a"}\n${long}\n{"project":"/srv/b"}`);
    const r = await readHintValues(historyAll, p);
    expect(r.values).toEqual(['/srv/a', '/srv/b']);
    expect(r.problem).toBe(`1 lines longer than ${HINT_MAX_LINE_BYTES} bytes were skipped when looking for project roots`);
    // With max_lines 1 an overlong first line ends the read at the cap, not at the line's end.
    const first = await forEachLine(p, 1, 8, () => {});
    expect(first).toEqual({ lines: 1, overlong: 1 });
  });

  it('splits lines across read chunks, keeps a last line without a newline and CRLF ends', async () => {
    const got: string[] = [];
    const body = `${'a'.repeat(300_000)}\r\n\nb\nc`;
    const r = await forEachLine(file('chunks.txt', body), Number.POSITIVE_INFINITY, 1 << 20, (l) => got.push(l));
    expect(r).toEqual({ lines: 4, overlong: 0 });
    expect(got).toEqual([`${'a'.repeat(300_000)}\r`, '', 'b', 'c']);
  });

  it('parses YAML hints tolerantly: a repeated key is read, the last one wins; an alias bomb gives nothing', () => {
    const ws: HintRule = { format: 'yaml', path: ['cwd'] };
    expect(hintValues(ws, 'id: s1\ncwd: /srv/first\nsummary: x\ncwd: /srv/last\n')).toEqual(['/srv/last']);
    const bomb = ['a: &a [x, x]', ...Array.from({ length: 12 }, (_, i) => `b${i}: &b${i} [*${i === 0 ? 'a' : `b${i - 1}`}, *${i === 0 ? 'a' : `b${i - 1}`}]`), 'cwd: /srv/x'].join('\n');
    expect(hintValues(ws, bomb)).toEqual([]);
  });
});

describe('stripJsonComments', () => {
  it.each([
    ['no slash at all', '{"a": 1}', '{"a": 1}'],
    ['a line comment becomes its line end', 'a // c\nb', 'a \nb'],
    ['a line comment at the end without a newline', 'a//c', 'a\n'],
    ['slashes inside a string stay', '"http://x" // c', '"http://x" \n'],
    ['an escaped quote does not end the string', '{"a":"\\"//"} /* x */ 1', '{"a":"\\"//"}  1'],
    ['an escaped backslash before the closing quote', '"esc \\\\" // c\n2', '"esc \\\\" \n2'],
    ['block comments go whole', 'x /* a */ y /* b */z', 'x  y z'],
    ['an unclosed block comment runs to the end', 'x /* open', 'x '],
    ['a lone slash outside a string stays', '1 / 2', '1 / 2'],
  ])('%s', (_name, text, expected) => {
    expect(stripJsonComments(text)).toBe(expected);
  });

  it('an 11 MB global state with URLs and comments parses to the same value as without them', () => {
    const projects = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`/srv/p${i}`, { url: `https://example.com/${i}`, history: [{ display: 'x'.repeat(40) }] }]));
    const plain = JSON.stringify({ projects });
    const commented = `// state\n${plain.replace('"projects":', '/* every project */ "projects":')}`;
    expect(JSON.parse(stripJsonComments(commented))).toEqual(JSON.parse(plain));
    expect(stripJsonComments(plain)).toBe(plain);
  });
});
