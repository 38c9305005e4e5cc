import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactFromFile } from '../../../sdk/fs-artifact.js';
import type { Artifact, McpServerReport, ParseContext, Parser, Row, SessionFact } from '../../../sdk/types.js';

/** What a parse produced: its rows, the facts it reported and its warnings. */
export interface ParseResult {
  rows: Row[];
  facts: SessionFact[];
  warnings: { message: string; line?: number }[];
  unknowns: { kind: string; line?: number }[];
  mcpServers: McpServerReport[];
}

/** Run one parser over one artifact with a recording context. */
export async function runParser(p: Parser, a: Artifact, includeThinking = false): Promise<ParseResult> {
  const out: ParseResult = { rows: [], facts: [], warnings: [], unknowns: [], mcpServers: [] };
  const ctx: ParseContext = {
    options: { includeThinking },
    fact: (f) => out.facts.push(f),
    warn: (message, line) => out.warnings.push({ message, line }),
    unknown: (kind, line) => out.unknowns.push({ kind, line }),
    mcp: (server) => out.mcpServers.push(server),
  };
  for await (const r of p.parse(a, ctx)) out.rows.push(r);
  return out;
}

/** A throwaway home directory; remove it with {@link removeHome}. */
export function makeHome(files: Record<string, string | Buffer> = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'aitrail-copilot-'));
  for (const [rel, body] of Object.entries(files)) writeHomeFile(home, rel, body);
  return home;
}

/** Write one file into a home, creating its directories. */
export function writeHomeFile(home: string, rel: string, body: string | Buffer): void {
  const path = join(home, ...rel.split('/'));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

/** Remove a home made by {@link makeHome}. */
export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

/** Write `body` at `rel` in a fresh home and parse it; the home is removed afterwards. */
export async function parseText(p: Parser, rel: string, body: string | Buffer, opts: { mtime?: string; extra?: Record<string, string> } = {}): Promise<ParseResult> {
  const home = makeHome({ [rel]: body, ...(opts.extra ?? {}) });
  try {
    return await runParser(p, artifactFromFile(home, rel, { mtime: opts.mtime }));
  } finally {
    removeHome(home);
  }
}

/** The shared real corpus (`../shared/corpus/real` beside the repository), wherever the clone is. */
export const CORPUS_ROOT = fileURLToPath(new URL('../../../../../../../shared/corpus/real', import.meta.url));
