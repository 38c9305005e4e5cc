import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { artifactFromFile } from '../../../sdk/fs-artifact.js';
import { collectRows, type RecordingContext, recordingContext } from '../../../sdk/recording-context.js';
import type { Artifact, Parser, Row } from '../../../sdk/types.js';

/** The repository's fixture homes. */
export const HOMES = fileURLToPath(new URL('../../../../../../fixtures/homes/', import.meta.url));
/** The shared real corpus, read in place (never copied into the repository). */
export const CORPUS = fileURLToPath(new URL('../../../../../../../shared/corpus/real/', import.meta.url));

/** Temporary homes of one test file, removed after it. */
export function tempHomes(label: string): { make(): string } {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });
  return {
    make() {
      const d = mkdtempSync(join(tmpdir(), `aitrail-${label}-`));
      made.push(d);
      return d;
    },
  };
}

/** A private copy of a fixture home (SQLite may write -shm beside a database it opens). */
export function copyHome(fixture: string, into: string): string {
  cpSync(join(HOMES, fixture), into, { recursive: true });
  return into;
}

/** Write text files under a home. */
export function writeFiles(home: string, files: Record<string, string | Buffer>): void {
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), body);
  }
}

/** A SQLite database built by `sql` at `home/rel` (rollback journal, closed: self-contained). */
export function buildDb(home: string, rel: string, sql: string, params: [string, unknown[]][] = []): string {
  const path = join(home, rel);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec(sql);
  for (const [stmt, values] of params) db.prepare(stmt).run(...values);
  db.close();
  return path;
}

/** Every file below a directory, as `/`-separated paths relative to it. */
export function relFiles(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return existsSync(dir) ? walk(dir).map((f) => relative(dir, f).split('\\').join('/')) : [];
}

/** Rows and the recording context of one parse of `home/rel`. */
export async function run(p: Parser, home: string, rel: string, opts: { includeThinking?: boolean; fields?: Partial<Artifact> } = {}): Promise<{ rows: Row[]; ctx: RecordingContext }> {
  const ctx = recordingContext(opts.includeThinking ?? true);
  const a = { ...artifactFromFile(home, rel), ...opts.fields };
  return { rows: await collectRows(p, a, ctx), ctx };
}

/** `[turn_type, text]` of each row. */
export const brief = (rows: Row[]): [string, string][] => rows.map((r) => [r.turn_type, r.text]);
