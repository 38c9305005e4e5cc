import { copyFileSync, createReadStream, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Artifact } from '../../../sdk/types.js';

export { collectRows, recordingContext, type RecordingContext } from '../../../sdk/recording-context.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../../../../../', import.meta.url));
/** The shared real corpus, read in place (never copied into the repository). */
export const CORPUS = fileURLToPath(new URL('../../../../../../../shared/corpus/real/', import.meta.url));

/** An in-memory artifact at `rel` holding `body`; `files` are other files by rel, for sibling(). */
export function memoryArtifact(rel: string, body: string | Buffer, files: Record<string, string | Buffer> = {}, fields: Partial<Artifact> = {}): Artifact {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const dir = rel.split('/').slice(0, -1).join('/');
  return {
    rel,
    user: 'user',
    host: 'host',
    scope: 'home',
    size: bytes.length,
    mtime: '2026-10-01T10:00:00.000Z',
    sha256: '',
    async *stream() {
      // Small chunks, so lines cross chunk boundaries as they do on disk.
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    },
    localPath: async () => {
      throw new Error(`${rel} is in memory, not on disk`);
    },
    sibling(name: string) {
      const other = `${dir}/${name}`;
      return other in files ? memoryArtifact(other, files[other], files) : undefined;
    },
    ...fields,
  };
}

/** An artifact over a file on disk, named `rel` (as the collector would archive it); temp copies are left to the OS's temp cleanup. */
export function diskArtifact(path: string, rel: string, fields: Partial<Artifact> = {}): Artifact {
  const st = statSync(path);
  return {
    ...memoryArtifact(rel, ''),
    size: st.size,
    mtime: st.mtime.toISOString(),
    stream: () => createReadStream(path),
    // A private copy with its sidecars, as the analyzer makes: SQLite never opens the original.
    localPath: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aitrail-codex-'));
      for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) copyFileSync(path + suffix, join(dir, basename(path) + suffix));
      return join(dir, basename(path));
    },
    ...fields,
  };
}

/** A file's text. */
export function text(path: string): string {
  return readFileSync(path, 'utf8');
}
