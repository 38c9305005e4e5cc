import { posix } from 'node:path';
import { collectRows, recordingContext } from '../../../sdk/recording-context.js';
import type { Artifact, Parser, Row } from '../../../sdk/types.js';
import type { ChatHooks } from '../chat-setup.js';

/** An in-memory home: rel → content. */
export type Home = Record<string, string | Buffer>;

/** An artifact over `home[rel]`, its siblings taken from the same home; streamed in small chunks so lines cross chunk boundaries. */
export function memoryArtifact(home: Home, rel: string, fields: Partial<Artifact> = {}): Artifact {
  const body = home[rel];
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return {
    rel,
    user: 'user',
    host: 'host',
    scope: 'home',
    size: bytes.length,
    mtime: '2026-10-02T00:00:00.000Z',
    sha256: '',
    async *stream() {
      for (let i = 0; i < bytes.length; i += 13) yield bytes.subarray(i, i + 13);
    },
    localPath: async () => {
      throw new Error('not on disk');
    },
    sibling(name: string) {
      const other = posix.normalize(posix.join(posix.dirname(rel), name));
      return other in home ? memoryArtifact(home, other) : undefined;
    },
    ...fields,
  };
}

/** JSON Lines text from objects (a string is written as is: a bad or cut line). */
export function jsonl(...lines: (object | string)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}

/** Rows, the recording context and the skipped lines of one parse. */
export async function run(p: Parser | ((a: Artifact, ctx: ReturnType<typeof recordingContext>, hooks: ChatHooks) => AsyncIterable<Row>), home: Home, rel: string, opts: { includeThinking?: boolean; fields?: Partial<Artifact> } = {}) {
  const ctx = recordingContext(opts.includeThinking ?? true);
  const skips: { line: number; reason: string }[] = [];
  const a = memoryArtifact(home, rel, opts.fields);
  const rows = typeof p === 'function' ? await collect(p(a, ctx, { onSkip: (line, reason) => skips.push({ line, reason }) })) : await collectRows(p, a, ctx);
  return { rows, ctx, skips };
}

async function collect(it: AsyncIterable<Row>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of it) out.push(r);
  return out;
}

/** `[source_line, turn_type, first line of text]` of each row, the shape most tests compare. */
export function brief(rows: Row[]): [number | null, string, string][] {
  return rows.map((r) => [r.source_line, r.turn_type, r.text.split('\n')[0]]);
}
