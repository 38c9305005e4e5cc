import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactFromFile } from './fs-artifact.js';
import { readJsonDocument } from './json-document.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-json-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (name: string, body: string, opts = {}) => {
  writeFileSync(join(dir, name), body);
  return readJsonDocument(artifactFromFile(dir, name, { mtime: '2026-01-01T00:00:00.000Z' }), opts);
};

describe('readJsonDocument', () => {
  it('reads JSON and JSON with comments and trailing commas (a BOM too)', async () => {
    expect(await read('a.json', '\uFEFF{"a": [1, 2,], // note\n "b": /* c */ true}')).toEqual({ ok: true, value: { a: [1, 2], b: true } });
  });

  it('an empty file, invalid JSON and an oversized file are one unreadable row at the file time; a secret file is never quoted', async () => {
    const rowOf = async (name: string, body: string, opts = {}) => {
      const r = await read(name, body, opts);
      return r.ok ? null : [r.row.timestamp_utc, r.row.text];
    };
    expect(await rowOf('e.json', '  ')).toEqual(['2026-01-01T00:00:00.000Z', 'parser: unreadable file (expected JSON, found an empty file)']);
    expect(await rowOf('i.json', '{"key": "sk-FAKE')).toEqual(['2026-01-01T00:00:00.000Z', 'parser: unreadable file (expected JSON, found invalid JSON: UnexpectedEndOfString at offset 8)']);
    expect((await rowOf('big.json', '[1]', { maxBytes: 2 }))?.[1]).toMatch(/^parser: unreadable file \(/);
  });

  it('reads a document that NUL bytes follow (a crash left the old length), and names a file of NULs alone', async () => {
    expect(await read('n.json', `{"model": "x"}\n${'\0'.repeat(4096)}`)).toEqual({ ok: true, value: { model: 'x' } });
    const r = await read('z.json', '\0'.repeat(512));
    expect(r.ok ? null : r.row.text).toBe('parser: unreadable file (expected JSON, found 512 NUL bytes and nothing else (a file cut short?))');
  });

  it('with object:, anything but a JSON object is one row saying what was found', async () => {
    const r = await read('o.json', '[1, 2]', { object: 'a JSON object of settings' });
    expect(r.ok ? null : r.row.text).toBe('parser: unreadable file (expected a JSON object of settings, found an array)');
    expect(await read('p.json', '{"a": 1}', { object: 'a JSON object of settings' })).toEqual({ ok: true, value: { a: 1 } });
  });
});
