import { makeRow, unreadableRow } from '../../sdk/row.js';
import { columnNames, openCollectedSqlite, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
// Sources Cursor writes: composer (the agent), tab (completions) and human; only the agent's give rows.
const SOURCES = new Set(['composer', 'tab', 'human']);

function* summaries(db: SqliteDatabase): Generator<Row> {
  const cols = columnNames(db, 'conversation_summaries');
  const pick = (c: string) => (cols.has(c) ? c : 'NULL');
  const sql = `SELECT rowid AS rowid, conversationId AS id, ${pick('title')} AS title, ${pick('tldr')} AS tldr, ${pick('model')} AS model, ${pick('mode')} AS mode, ${pick('updatedAt')} AS at FROM conversation_summaries ORDER BY rowid`;
  for (const r of db.prepare(sql).iterate() as IterableIterator<Record<string, unknown>>) {
    const head = [str(r.title), str(r.tldr)].filter(Boolean).join(': ');
    const parts = [`session summary: ${head || '(empty)'}`];
    if (str(r.model)) parts.push(`model=${str(r.model)}`);
    if (str(r.mode)) parts.push(`mode=${str(r.mode)}`);
    yield makeRow('system', parts.join(' '), { timestamp_utc: toUtc(r.at), session_id: str(r.id), model: str(r.model), source_line: Number(r.rowid), tag: 'session_summary' });
  }
}

function* codeHashes(db: SqliteDatabase, ctx: ParseContext): Generator<Row> {
  const cols = columnNames(db, 'ai_code_hashes');
  const time = cols.has('timestamp') && cols.has('createdAt') ? 'COALESCE(timestamp, createdAt)' : cols.has('timestamp') ? 'timestamp' : cols.has('createdAt') ? 'createdAt' : 'NULL';
  const model = cols.has('model') ? 'group_concat(DISTINCT model)' : 'NULL';
  for (const r of db.prepare('SELECT source, count(*) AS n, min(rowid) AS line FROM ai_code_hashes GROUP BY source').all() as { source: unknown; n: number; line: number }[]) {
    if (!SOURCES.has(str(r.source))) ctx.unknown(`ai_code_hashes source ${str(r.source) || '(none)'}`, r.line);
  }
  // One row per conversation and file: which file the agent wrote lines into, how many hashes, when last.
  const sql = `SELECT conversationId AS id, fileName AS file, count(*) AS n, max(${time}) AS at, ${model} AS model, min(rowid) AS line FROM ai_code_hashes WHERE source = 'composer' GROUP BY conversationId, fileName ORDER BY min(rowid)`;
  for (const r of db.prepare(sql).iterate() as IterableIterator<Record<string, unknown>>) {
    const m = str(r.model);
    yield makeRow('system', `ai code: ${str(r.file) || '(no file name)'} hashes=${str(r.n)}${m ? ` model=${m}` : ''}`, { timestamp_utc: toUtc(r.at), session_id: str(r.id), model: m, source_line: Number(r.line), tag: 'ai_code' });
  }
}

function* scoredCommits(db: SqliteDatabase): Generator<Row> {
  for (const r of db.prepare('SELECT rowid AS rowid, * FROM scored_commits ORDER BY rowid').iterate() as IterableIterator<Record<string, unknown>>) {
    const parts = [`commit scored: ${str(r.commitHash)}`];
    if (str(r.branchName)) parts.push(`branch=${str(r.branchName)}`);
    parts.push(`composer +${str(r.composerLinesAdded) || 0} -${str(r.composerLinesDeleted) || 0}`, `tab +${str(r.tabLinesAdded) || 0}`, `human +${str(r.humanLinesAdded) || 0}`);
    if (str(r.v2AiPercentage)) parts.push(`ai=${str(r.v2AiPercentage)}`);
    yield makeRow('system', parts.join(' '), { timestamp_utc: toUtc(r.scoredAt) || toUtc(r.commitDate), source_line: Number(r.rowid), tag: 'commit_scored' });
  }
}

/**
 * `~/.cursor/ai-tracking/ai-code-tracking.db` (secondary): conversation summaries, the files each
 * conversation's AI wrote lines into (ai_code_hashes from the composer; tab completions and human
 * lines give no row), and commits scored by their share of AI lines.
 */
export async function* parseAiTracking(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  let db: SqliteDatabase;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    yield unreadableRow((e as Error).message);
    return;
  }
  try {
    const t = tableNames(db);
    if (!t.has('ai_code_hashes') && !t.has('conversation_summaries') && !t.has('scored_commits')) {
      yield unreadableRow(`expected the ai_code_hashes, conversation_summaries or scored_commits table in ${a.rel}, found ${[...t].join(', ') || 'no table'}`);
      return;
    }
    if (t.has('conversation_summaries')) yield* summaries(db);
    if (t.has('ai_code_hashes')) yield* codeHashes(db, ctx);
    if (t.has('scored_commits')) yield* scoredCommits(db);
  } catch (e) {
    yield makeRow('system', `parser: the database could not be read to the end (${(e as Error).message.split('\n')[0]}); the rows above were read before the error`, { tag: 'unreadable' });
  } finally {
    db.close();
  }
}
