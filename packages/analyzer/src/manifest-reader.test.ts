import { describe, expect, it } from 'vitest';
import { MAX_MANIFEST_LINE } from '@aitrail/collector';
import { readManifestStream } from './manifest-reader.js';

const row = (n: number) => JSON.stringify({ user: 'u', agent: 'a', rel: `f${n}`, archive_path: `homes/u/f${n}`, status: 'collected' });

async function* chunks(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

describe('manifest.jsonl reader', () => {
  it('reads rows across any chunking, CRLF and a last line without newline', async () => {
    const text = `${row(1)}\r\n${row(2)}\n\n${row(3)}`;
    for (const size of [1, 3, 7, 1000]) {
      const { manifest, problems } = await readManifestStream(chunks(text, size));
      expect(manifest.map((r) => r.rel)).toEqual(['f1', 'f2', 'f3']);
      expect(problems).toEqual([]);
    }
  });

  it('reports lines that are not manifest rows, with their line numbers, and keeps the good rows', async () => {
    const { manifest, problems } = await readManifestStream(chunks(`${row(1)}\n{not json\n[1,2]\n{"foo":1}\n${row(5)}\n`, 5));
    expect(manifest.map((r) => r.rel)).toEqual(['f1', 'f5']);
    expect(problems.map((p) => p.split(':')[0])).toEqual(['manifest.jsonl line 2', 'manifest.jsonl line 3', 'manifest.jsonl line 4']);
  });

  it('skips an enormous line without keeping it, and reads the rows after it', async () => {
    async function* bomb(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${row(1)}\n`);
      const a = Buffer.alloc(1 << 20, 97);
      for (let i = 0; i < 3 * (MAX_MANIFEST_LINE >> 20); i++) yield a; // three times the limit, one line
      yield Buffer.from(`\n${row(3)}\n`);
    }
    const { manifest, problems } = await readManifestStream(bomb());
    expect(manifest.map((r) => r.rel)).toEqual(['f1', 'f3']);
    expect(problems).toEqual([`manifest.jsonl line 2: longer than ${MAX_MANIFEST_LINE} bytes, not a manifest row; skipped`]);
  });

  it('refuses a row with a field of the wrong type (a user nested 100,000 deep), naming the field and the line', async () => {
    const deep = JSON.stringify({ user: '@', agent: 'a', rel: 'f2', archive_path: 'homes/u/f2', status: 'collected' }).replace('"@"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const { manifest, problems } = await readManifestStream(chunks(`${row(1)}\n${deep}\n${row(3)}\n`, 4096));
    expect(manifest.map((r) => r.rel)).toEqual(['f1', 'f3']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^manifest\.jsonl line 2: expected a manifest row \(a JSON object\), found a row with "user" as an array \(expected a string\): \{"user":\[\[/);
  });
});

