import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { checkArchivePath } from './safe-path.js';
import { type CollectionSource, METADATA_MEMBERS, type MemberInfo, parseCollectionText } from './source.js';

/** Largest collection.json or manifest.jsonl read into memory. */
const MAX_METADATA_BYTES = 1024 * 1024 * 1024;

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((res, rej) => yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (err, zip) => (err ? rej(err) : res(zip))));
}

function readEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((res, rej) => {
    const map = new Map<string, yauzl.Entry>();
    zip.on('entry', (e: yauzl.Entry) => {
      if (!e.fileName.endsWith('/')) map.set(e.fileName, e);
      zip.readEntry();
    });
    zip.on('end', () => res(map));
    zip.on('error', rej);
    zip.readEntry();
  });
}

function openStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s))));
}

async function readText(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined, name: string, label: string): Promise<string> {
  if (!entry) throw new Error(`${label}: expected an aitrail collection archive holding ${name}, found none; is this an aitrail collection?`);
  if (entry.uncompressedSize > MAX_METADATA_BYTES) throw new Error(`${label}: ${name} declares ${entry.uncompressedSize} bytes, more than the ${MAX_METADATA_BYTES} allowed; the archive looks damaged`);
  const chunks: Buffer[] = [];
  for await (const c of await openStream(zip, entry)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A collection zip read with yauzl. yauzl checks each member's inflated size against its
 * declared size (a zip bomb stops at the declared size), and a member is only inflated on demand.
 */
export async function openZipSource(path: string): Promise<CollectionSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (e) {
    throw new Error(`${path}: expected a readable zip archive, found ${(e as Error).message}; check the file (aitrail verify) or re-collect`);
  }
  try {
    const entries = await readEntries(zip);
    const { info, manifest, problems } = parseCollectionText(path, await readText(zip, entries.get('collection.json'), 'collection.json', path), await readText(zip, entries.get('manifest.jsonl'), 'manifest.jsonl', path));
    const members: MemberInfo[] = [];
    for (const [name, e] of entries) if (!METADATA_MEMBERS.has(name)) members.push({ name, size: e.uncompressedSize });
    members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entry = (name: string) => {
      checkArchivePath(name);
      const e = entries.get(name);
      if (!e) throw new Error(`${name}: expected a member of ${path}, found none`);
      return e;
    };
    return {
      label: path,
      info,
      manifest,
      problems,
      members: () => members,
      async *openMember(name: string) {
        for await (const c of await openStream(zip, entry(name))) yield c as Buffer;
      },
      async materialize(names: string[], dir: string) {
        for (const name of names) await pipeline(await openStream(zip, entry(name)), createWriteStream(join(dir, name.split('/').pop()!), { mode: 0o600 }));
      },
      close: async () => zip.close(),
    };
  } catch (e) {
    zip.close();
    throw e;
  }
}
