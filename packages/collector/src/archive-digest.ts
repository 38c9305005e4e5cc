import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** What `<archive>.sha256`, written by collect beside the archive, says of it. */
export interface SidecarCheck {
  /** ok, mismatch, missing (no sidecar: noted, not a failure) or unreadable. */
  status: 'ok' | 'mismatch' | 'missing' | 'unreadable';
  /** The hash the sidecar names ('' when it names none). */
  expected: string;
}

/** SHA-256 of a file on disk, streamed. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Compare `archiveSha` with the hash `<path>.sha256` names (a `sha256sum` line). */
export async function checkSidecar(path: string, archiveSha: string): Promise<SidecarCheck> {
  const sidecar: SidecarCheck = { status: 'missing', expected: '' };
  try {
    const text = await readFile(`${path}.sha256`, 'utf8');
    const m = /^([0-9a-fA-F]{64})\s+\*?(.+?)\s*$/m.exec(text);
    if (!m) sidecar.status = 'unreadable';
    else {
      sidecar.expected = m[1].toLowerCase();
      // The hash decides: a renamed archive whose sidecar names its old name still matches.
      sidecar.status = sidecar.expected === archiveSha ? 'ok' : 'mismatch';
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') sidecar.status = 'unreadable';
  }
  return sidecar;
}

/** The archive's own SHA-256 and what its sidecar says of it. */
export async function archiveDigest(path: string): Promise<{ sha256: string; sidecar: SidecarCheck }> {
  const sha256 = await sha256File(path);
  return { sha256, sidecar: await checkSidecar(path, sha256) };
}
