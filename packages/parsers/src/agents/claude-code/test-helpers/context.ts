import type { Artifact, ParseContext, Parser, Row, SessionFact } from '../../../sdk/types.js';

/** A ParseContext that records what parsers report, for tests. */
export interface RecordingContext extends ParseContext {
  facts: SessionFact[];
  warnings: string[];
}

/** A recording context with the given include_thinking option. */
export function recordingContext(includeThinking = true): RecordingContext {
  const facts: SessionFact[] = [];
  const warnings: string[] = [];
  return {
    options: { includeThinking },
    facts,
    warnings,
    fact: (f) => facts.push(f),
    warn: (m) => warnings.push(m),
  };
}

/** Every row a parser gives for an artifact. */
export async function collectRows(p: Parser | ((a: Artifact, ctx: ParseContext) => AsyncIterable<Row>), a: Artifact, ctx: ParseContext = recordingContext()): Promise<Row[]> {
  const rows: Row[] = [];
  const parse = typeof p === 'function' ? p : p.parse;
  for await (const r of parse(a, ctx)) rows.push(r);
  return rows;
}
