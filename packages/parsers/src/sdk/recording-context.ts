import type { Artifact, McpServerReport, ParseContext, Parser, Row, SessionFact } from './types.js';

/** A ParseContext that keeps everything a parser reports, for tests of built-in and plugin parsers. */
export interface RecordingContext extends ParseContext {
  facts: SessionFact[];
  warnings: { message: string; line?: number }[];
  /** Unknown record kinds reported, in order, with their lines. */
  unknowns: { kind: string; line?: number }[];
  /** MCP servers reported, in order. */
  mcpServers: McpServerReport[];
}

/** A recording context; `includeThinking` as `--include-thinking` would set it. */
export function recordingContext(includeThinking = true): RecordingContext {
  const ctx: RecordingContext = {
    options: { includeThinking },
    facts: [],
    warnings: [],
    unknowns: [],
    mcpServers: [],
    fact: (f) => {
      ctx.facts.push(f);
    },
    warn: (message, line) => {
      ctx.warnings.push(line === undefined ? { message } : { message, line });
    },
    unknown: (kind, line) => {
      ctx.unknowns.push(line === undefined ? { kind } : { kind, line });
    },
    mcp: (server) => {
      ctx.mcpServers.push(server);
    },
  };
  return ctx;
}

/** Every row a parser gives for an artifact. */
export async function collectRows(p: Parser | ((a: Artifact, ctx: ParseContext) => AsyncIterable<Row>), a: Artifact, ctx: ParseContext = recordingContext()): Promise<Row[]> {
  const rows: Row[] = [];
  const parse = typeof p === 'function' ? p : p.parse.bind(p);
  for await (const r of parse(a, ctx)) rows.push(r);
  return rows;
}
