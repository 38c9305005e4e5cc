import { closeSync, fstatSync, openSync } from 'node:fs';
import yauzl from 'yauzl';
import { ArchiveFileReader } from './archive-file-reader.js';
import type { MemberInfo } from './archive-reader.js';
import { findZipBounds, type ZipBounds } from './zip-bounds.js';
import type { EntrySpan } from './zip-overlap.js';

/** Why a member name is unsafe to use as a path, or undefined when it is fine. */
export function unsafeMemberName(name: string): string | undefined {
  if (name === '') return 'empty name';
  if (name.includes('\0')) return 'contains a NUL byte';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'drive letter';
  if (name.split('/').some((s) => s === '..')) return 'contains ".."';
  return undefined;
}

/** A zip opened and its central directory listed. */
export interface Listing {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  members: Map<string, MemberInfo>;
  problems: string[];
  spans: EntrySpan[];
}

/** The zip inside a file that holds more than the zip (zip-bounds.ts), listed; undefined when there is none. */
export async function listAround(path: string): Promise<Listing | undefined> {
  const fd = openSync(path, 'r');
  let bounds: ZipBounds | undefined;
  let size = 0;
  try {
    size = fstatSync(fd).size;
    bounds = findZipBounds(fd, size);
  } finally {
    closeSync(fd);
  }
  if (!bounds || (bounds.base === 0 && bounds.end === size)) return undefined;
  const listed = await listZip(path, bounds.base, bounds.end);
  const notes: string[] = [];
  if (bounds.base > 0) notes.push(`${bounds.base} bytes before the zip's first member are not part of the archive: skipped (a copy with bytes put in front, or carved from a disk)`);
  if (bounds.end < size) notes.push(`${size - bounds.end} bytes after the zip's end record are not part of the archive: ignored (a padded or appended copy)`);
  listed.problems.unshift(...notes.map((n) => `${n}; its members are read as they are and checked against the manifest`));
  return listed;
}

/**
 * Open the zip that starts `base` bytes into the file and ends at `end` (default: the file's
 * end), and list its central directory; errors name the archive.
 */
export async function listZip(path: string, base: number, end: number | undefined): Promise<Listing> {
  let zip: yauzl.ZipFile;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = (end ?? fstatSync(fd).size) - base;
    const reader = new ArchiveFileReader(fd, base);
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(reader, size, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
    );
  } catch (err) {
    // yauzl may have closed it already, on its way out of a bad central directory.
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {}
    }
    throw new Error(`${path}: not a readable zip archive (${(err as Error).message}); is it complete and a collection zip?`);
  }
  const entries = new Map<string, yauzl.Entry>();
  const members = new Map<string, MemberInfo>();
  const problems: string[] = [];
  // Listed in the same pass as the members: a second pass over a central directory of 20,000
  // entries cost the analysis 0.7 s of small reads, in every thread that opened the archive.
  const spans: EntrySpan[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        const raw = entry.fileName as unknown as Buffer;
        const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
        if (!name.endsWith('/')) spans.push({ name, start: entry.relativeOffsetOfLocalHeader, end: entry.relativeOffsetOfLocalHeader + 30 + entry.compressedSize });
        const bad = unsafeMemberName(name);
        if (bad) problems.push(`unsafe member name ${JSON.stringify(name)} (${bad}): not read`);
        else if (name.endsWith('/')) {
          // a directory entry carries no data
        } else if (entries.has(name)) problems.push(`duplicate member name ${JSON.stringify(name)}: only the first is read`);
        else {
          entries.set(name, entry);
          members.set(name, { size: entry.uncompressedSize, compressedSize: entry.compressedSize });
        }
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', reject);
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    throw new Error(`${path}: corrupt zip central directory (${(err as Error).message}); the archive is damaged or truncated`);
  }
  return { zip, entries, members, problems, spans };
}

