import { join } from 'node:path';
import { artifactFromFile } from '../../../sdk/fs-artifact.js';
import { collectRows, type RecordingContext, recordingContext } from '../../../sdk/recording-context.js';
import type { Artifact, Parser, Row } from '../../../sdk/types.js';
import { vscodeCopilotChatPlugin } from '../index.js';

/** The fixture homes of this agent. */
export const HOMES = {
  spec: join(import.meta.dirname, '../../../../../../fixtures/homes/vscode-copilot-chat'),
  variants: join(import.meta.dirname, '../../../../../../fixtures/homes/vscode-variants'),
};

/** What one parse gave. */
export interface Run {
  rows: Row[];
  ctx: RecordingContext;
  /** [source_line, turn_type, tag, text] per row: the short form most tests compare. */
  short: [number | null, Row['turn_type'], string, string][];
}

/** The one parser of this agent that wants `rel` (an error when none or several do). */
export function parserFor(rel: string): Parser {
  const ps = vscodeCopilotChatPlugin.parsers.filter((p) => p.wants(rel));
  if (ps.length !== 1) throw new Error(`expected one parser to want ${rel}, found ${ps.map((p) => p.name).join(', ') || 'none'}`);
  return ps[0];
}

function done(rows: Row[], ctx: RecordingContext): Run {
  return { rows, ctx, short: rows.map((r) => [r.source_line, r.turn_type, r.tag ?? '', r.text]) };
}

/** Parse a file of a fixture home. */
export async function runFile(home: string, rel: string, opts: { thinking?: boolean; mtime?: string; scope?: Artifact['scope'] } = {}): Promise<Run> {
  const ctx = recordingContext(opts.thinking ?? true);
  const rows = await collectRows(parserFor(rel), artifactFromFile(home, rel, { mtime: opts.mtime ?? '2026-10-02T09:00:00.000Z', scope: opts.scope }), ctx);
  return done(rows, ctx);
}

/** An artifact over bytes in memory (no siblings unless given), streamed in chunks of `chunk` bytes. */
export function memoryArtifact(rel: string, content: string | Buffer, opts: { chunk?: number; siblings?: Record<string, string>; scope?: Artifact['scope']; projectRoot?: string } = {}): Artifact {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  const size = Math.max(1, opts.chunk ?? bytes.length);
  return {
    rel,
    user: 'alex',
    host: 'host',
    scope: opts.scope ?? 'home',
    projectRoot: opts.projectRoot ?? '',
    size: bytes.length,
    mtime: '2026-10-02T09:00:00.000Z',
    sha256: '',
    async *stream() {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    },
    localPath: async () => {
      throw new Error('not on disk');
    },
    sibling(name) {
      const text = opts.siblings?.[name];
      return text === undefined ? undefined : memoryArtifact(`${rel.slice(0, rel.lastIndexOf('/') + 1)}${name}`, text);
    },
  };
}

/** Parse bytes in memory as the file `rel` would be parsed. */
export async function runText(rel: string, content: string | Buffer, opts: { thinking?: boolean; chunk?: number; siblings?: Record<string, string>; scope?: Artifact['scope']; projectRoot?: string } = {}): Promise<Run> {
  const ctx = recordingContext(opts.thinking ?? true);
  const rows = await collectRows(parserFor(rel), memoryArtifact(rel, content, opts), ctx);
  return done(rows, ctx);
}

/** A session log (one JSON entry per line) from entries. */
export function log(...entries: unknown[]): string {
  return entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n';
}

/** Where a chat session log of workspace `ws` sits. */
export const SESSION_REL = (id: string, ext = 'jsonl') => `.config/Code/User/workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0/chatSessions/${id}.${ext}`;
