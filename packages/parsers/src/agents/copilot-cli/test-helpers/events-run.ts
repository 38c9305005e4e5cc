import { parseEventLines } from '../events-parser.js';
import { stringifyEventLine } from './events-stringify.js';
import type { McpServerReport, ParseContext, Row, SessionFact } from '../../../sdk/types.js';

/** Everything one parse reported: rows, facts, warnings and the lines deliberately skipped. */
export interface EventsRun {
  rows: Row[];
  facts: SessionFact[];
  warnings: { message: string; line?: number }[];
  skips: { line: number; reason: string }[];
  unknowns: { kind: string; line?: number }[];
  mcpServers: McpServerReport[];
}

/** Options for {@link runEvents}. */
export interface RunOptions {
  includeThinking?: boolean;
  legacy?: boolean;
  sessionId?: string;
  /** Feed the bytes in chunks of this size (default: one chunk). */
  chunkSize?: number;
}

/** The session id the tests use. */
export const SID = '5e55a0a1-0000-4000-8000-0000000000aa';

/** Parse event-log text through the parser's streaming core and collect what it reported. */
export async function runEvents(text: string | Buffer, opts: RunOptions = {}): Promise<EventsRun> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const size = opts.chunkSize ?? Math.max(1, bytes.length);
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: EventsRun = { rows: [], facts: [], warnings: [], skips: [], unknowns: [], mcpServers: [] };
  const ctx: ParseContext = {
    options: { includeThinking: opts.includeThinking ?? false },
    fact: (f) => out.facts.push(f),
    warn: (message, line) => out.warnings.push({ message, line }),
    unknown: (kind, line) => out.unknowns.push({ kind, line }),
    mcp: (server) => out.mcpServers.push(server),
  };
  const gen = parseEventLines(source(), ctx, { sessionId: opts.sessionId ?? SID, legacy: opts.legacy, onSkip: (line, reason) => out.skips.push({ line, reason }) });
  for await (const r of gen) out.rows.push(r);
  return out;
}

let counter = 0;

/** An event line in the native encoding, with a fresh id and the given (or a fixed) timestamp. */
export function event(type: string, data: unknown, extra: Record<string, unknown> = {}): string {
  counter += 1;
  return JSON.stringify({ id: `e-${counter}`, parentId: null, timestamp: '2026-10-01T09:00:00.000Z', type, data, ...extra });
}

/** Lines joined as a JSONL file with a final newline. */
export function jsonl(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** The same lines in seed 001's stringified encoding. */
export function stringified(lines: string[]): string[] {
  return lines.map(stringifyEventLine);
}
