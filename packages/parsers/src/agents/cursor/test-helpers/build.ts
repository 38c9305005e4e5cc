import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { artifactFromFile } from '../../../sdk/fs-artifact.js';
import { collectRows, type RecordingContext, recordingContext } from '../../../sdk/recording-context.js';
import type { Artifact, Parser, Row } from '../../../sdk/types.js';
import { cursorParsers } from '../index.js';

/** A scratch home for one test file; `done()` removes it. */
export function scratchHome(name: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `aitrail-cursor-${name}-`));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The Cursor state-database tables, as Cursor creates them. */
export const STATE_SCHEMA = 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);';

/** A key-value pair; a value that is not a string is stored as its JSON, `null` as NULL. */
export type Kv = [string, unknown];

const enc = (v: unknown) => (v === null ? null : typeof v === 'string' || Buffer.isBuffer(v) ? v : JSON.stringify(v));

/** Write a state.vscdb at `home/rel` (rollback-journal mode) holding these ItemTable and cursorDiskKV pairs, in order. */
export function writeStateDb(home: string, rel: string, items: Kv[], kv: Kv[], extraSql = ''): string {
  const file = join(home, ...rel.split('/'));
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.exec(STATE_SCHEMA + extraSql);
  const pi = db.prepare('INSERT INTO ItemTable VALUES (?, ?)');
  const pk = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
  for (const [k, v] of items) pi.run(k, enc(v));
  for (const [k, v] of kv) pk.run(k, enc(v));
  db.close();
  return file;
}

/** The Cursor parser that wants `rel` (exactly one must). */
export function parserFor(rel: string): Parser {
  const ps = cursorParsers.filter((p) => p.wants(rel));
  if (ps.length !== 1) throw new Error(`expected one cursor parser for ${rel}, found ${ps.map((p) => p.name).join(', ') || 'none'}`);
  return ps[0];
}

/**
 * An artifact over `home/rel` whose localPath() is a private copy with its sidecars, as the
 * analyzer materializes one: for files that must not be opened in place (the shared real corpus).
 */
export function copiedArtifact(home: string, rel: string, tmp: string): Artifact {
  const a = artifactFromFile(home, rel, { mtime: '2026-12-01T00:00:00.000Z' });
  const src = join(home, ...rel.split('/'));
  return {
    ...a,
    async localPath() {
      const d = mkdtempSync(join(tmp, 'm-'));
      const dest = join(d, rel.split('/').pop()!);
      for (const s of ['', '-wal', '-shm', '-journal']) if (existsSync(src + s)) copyFileSync(src + s, dest + s);
      return dest;
    },
  };
}

/** Parse `home/rel` with the parser that wants it. */
export async function parseFile(home: string, rel: string, opts: { includeThinking?: boolean; fields?: Partial<Artifact>; copyTo?: string } = {}): Promise<{ rows: Row[]; ctx: RecordingContext }> {
  const ctx = recordingContext(opts.includeThinking ?? true);
  const base = opts.copyTo ? copiedArtifact(home, rel, opts.copyTo) : artifactFromFile(home, rel, { mtime: '2026-12-01T00:00:00.000Z' });
  const a = { ...base, ...opts.fields };
  const rows = await collectRows(parserFor(rel), a, ctx);
  return { rows, ctx };
}

/** The columns a test compares, in the spec's order. */
export function view(r: Row): [string, string, string, string, string, string, string, string, string, number | null, string] {
  return [r.timestamp_utc, r.session_id, r.project_path, r.git_branch, r.model, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.source_line, r.tag ?? ''];
}
