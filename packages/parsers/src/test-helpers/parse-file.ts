import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { builtInPlugins } from '../index.js';
import { artifactFromFile } from '../sdk/fs-artifact.js';
import { type RecordingContext, recordingContext } from '../sdk/recording-context.js';
import type { Parser, Row } from '../sdk/types.js';

const parsers = builtInPlugins.flatMap((p) => p.parsers);

/** The built-in parser named `<agent>/<name>`, or undefined. */
export function parserByKey(key: string): Parser | undefined {
  return parsers.find((p) => `${p.agent}/${p.name}` === key);
}

/**
 * The rows of `parser` over `bytes` written as the file `rel` of the home `home` (created), and
 * the context they reported to; `mtime` (seconds) fixes the file's time, which rows carry.
 */
export async function parseFile(parser: Parser, home: string, rel: string, bytes: string | Buffer, mtime?: number): Promise<{ rows: Row[]; ctx: RecordingContext }> {
  const path = join(home, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  if (mtime !== undefined) utimesSync(path, mtime, mtime);
  const ctx = recordingContext();
  const rows: Row[] = [];
  for await (const r of parser.parse(artifactFromFile(home, rel, { user: 'u', host: 'h' }), ctx)) rows.push(r);
  return { rows, ctx };
}
