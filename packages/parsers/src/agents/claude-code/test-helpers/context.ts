import type { Artifact, Parser } from '../../../sdk/types.js';
import { collectRows, recordingContext } from '../../../sdk/recording-context.js';

export { collectRows, recordingContext, type RecordingContext } from '../../../sdk/recording-context.js';

/** An in-memory artifact at `rel` holding `body`; `files` are other home files, by rel, for sibling(). */
export function memoryArtifact(rel: string, body: string | Buffer, files: Record<string, string> = {}, fields: Partial<Artifact> = {}): Artifact {
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
      throw new Error('not on disk');
    },
    sibling(name: string) {
      const parts = `${dir}/${name}`.split('/');
      const out: string[] = [];
      for (const p of parts) {
        if (p === '..') out.pop();
        else if (p !== '.' && p !== '') out.push(p);
      }
      const other = out.join('/');
      return other in files ? memoryArtifact(other, files[other], files) : undefined;
    },
    ...fields,
  };
}

/** Rows and the recording context from one parse of `body` at `rel`. */
export async function parseText(p: Parser, rel: string, body: string, opts: { includeThinking?: boolean; files?: Record<string, string>; fields?: Partial<Artifact> } = {}) {
  const ctx = recordingContext(opts.includeThinking ?? true);
  const rows = await collectRows(p, memoryArtifact(rel, body, opts.files, opts.fields), ctx);
  return { rows, ctx };
}
