import { makeRow } from '../../sdk/row.js';
import { columnNames, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { normalizeTimestamp } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { vscodeParser } from './common.js';
import { USER_PATTERNS } from './paths.js';
import { openStore } from './sqlite-open.js';

type Rec = Record<string, unknown>;

const CHECKPOINT_COLUMNS = ['overview', 'history', 'work_done', 'technical_details', 'important_files', 'next_steps'] as const;
// sessionStoreTracking.ts @00b5e765: user_message 100 (1,000 in a later build), assistant_response 1,000.
const LIMIT = { user: 1000, assistant: 1000 } as const;

/**
 * globalStorage/github.copilot-chat/session-store.db, the extension's cross-session store
 * ("Chronicle", the Copilot CLI's schema 3: microsoft/vscode extensions/copilot/src/platform/
 * chronicle/node/sessionStore.ts @02d77ce1), read through its WAL. Secondary (tolerance one hour:
 * a turn is stored at its end). Its text is cut (truncateForStore: the first n-3 characters,
 * trailing spaces trimmed, then "..."); such rows are tagged `truncated`, so the analyzer matches
 * them to the full prompt or reply they begin (docs/formats.md, prefix rule).
 *
 * Rows, source_line the rowid: sessions `session name: <summary>`; turns user and assistant;
 * session_files `file changed: <path> tool=<tool>`; session_refs `reference: <type> <value>`;
 * checkpoints `checkpoint <n>: <title>` and one `<section>: <text>` line per non-null section.
 */
export const vscodeStoreParser = vscodeParser({
  name: 'session-store',
  user: USER_PATTERNS.store,
  secondary: () => true,
  toleranceSeconds: () => 3600,
  parse: parseStore,
});

async function* parseStore(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const opened = await openStore(a);
  if ('row' in opened) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  try {
    const tables = tableNames(db);
    const sessions = new Map<string, { cwd: string; branch: string }>();
    const of = (id: string): Partial<Row> => ({ session_id: id, project_path: sessions.get(id)?.cwd ?? '', git_branch: sessions.get(id)?.branch ?? '' });
    const stamp = (v: unknown, where: string, rowid: number) => {
      const t = normalizeTimestamp(v);
      if (!t.ok && v !== null && v !== undefined) ctx.warn(`session-store.db ${where} row ${rowid}: ${t.reason}`);
      return t.ok ? t.value : '';
    };
    if (tables.has('sessions')) {
      yield* rows(db, 'sessions', ['id', 'cwd', 'branch', 'summary', 'created_at'], (r, rowid) => {
        const id = text(r.id);
        const info = { cwd: text(r.cwd), branch: text(r.branch) };
        sessions.set(id, info);
        if (info.cwd) ctx.fact({ session_id: id, key: 'cwd', value: info.cwd, priority: 4 });
        if (info.branch) ctx.fact({ session_id: id, key: 'branch', value: info.branch, priority: 3 });
        if (text(r.summary)) ctx.fact({ session_id: id, key: 'name', value: text(r.summary), priority: 2 });
        return text(r.summary) ? [makeRow('system', `session name: ${text(r.summary)}`, { ...of(id), timestamp_utc: stamp(r.created_at, 'sessions', rowid), source_line: rowid, tag: 'session_name' })] : [];
      });
    }
    if (tables.has('turns')) {
      yield* rows(db, 'turns', ['session_id', 'user_message', 'assistant_response', 'timestamp'], (r, rowid) => {
        const f = { ...of(text(r.session_id)), timestamp_utc: stamp(r.timestamp, 'turns', rowid), source_line: rowid };
        const out: Row[] = [];
        const [prompt, reply] = [text(r.user_message), text(r.assistant_response)];
        if (prompt) out.push(makeRow('user', prompt, cut(prompt, LIMIT.user) ? { ...f, tag: 'truncated' } : f));
        if (reply) out.push(makeRow('assistant', reply, cut(reply, LIMIT.assistant) ? { ...f, tag: 'truncated' } : f));
        return out;
      });
    }
    if (tables.has('session_files')) {
      yield* rows(db, 'session_files', ['session_id', 'file_path', 'tool_name', 'first_seen_at'], (r, rowid) => [
        makeRow('system', `file changed: ${text(r.file_path)} tool=${text(r.tool_name) || '-'}`, { ...of(text(r.session_id)), timestamp_utc: stamp(r.first_seen_at, 'session_files', rowid), source_line: rowid, tag: 'file_changed' }),
      ]);
    }
    if (tables.has('session_refs')) {
      yield* rows(db, 'session_refs', ['session_id', 'ref_type', 'ref_value', 'created_at'], (r, rowid) => [
        makeRow('system', `reference: ${text(r.ref_type)} ${text(r.ref_value)}`, { ...of(text(r.session_id)), timestamp_utc: stamp(r.created_at, 'session_refs', rowid), source_line: rowid, tag: 'reference' }),
      ]);
    }
    if (tables.has('checkpoints')) {
      yield* rows(db, 'checkpoints', ['session_id', 'checkpoint_number', 'title', ...CHECKPOINT_COLUMNS, 'created_at'], (r, rowid) => {
        const lines = [`checkpoint ${text(r.checkpoint_number) || '?'}: ${text(r.title) || '-'}`];
        for (const c of CHECKPOINT_COLUMNS) if (r[c] !== null && r[c] !== undefined) lines.push(`${c}: ${text(r[c])}`);
        return [makeRow('system', lines.join('\n'), { ...of(text(r.session_id)), timestamp_utc: stamp(r.created_at, 'checkpoints', rowid), source_line: rowid, tag: 'checkpoint' })];
      });
    }
    // search_index (FTS copies of turns and checkpoints) and schema_version give no rows.
  } finally {
    db.close();
  }
}

/** A value the store cut: "..." at its end, no longer than the limit. */
function cut(v: string, limit: number): boolean {
  return v.endsWith('...') && v.length <= limit;
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Every row of a table, oldest rowid first, the wanted columns that exist (missing ones read NULL); a table that fails mid-read gives an unreadable row. */
function* rows(db: SqliteDatabase, table: string, wanted: string[], toRows: (r: Rec, rowid: number) => Row[]): Generator<Row> {
  const have = columnNames(db, table);
  const list = wanted.map((c) => (have.has(c) ? quote(c) : `NULL AS ${quote(c)}`));
  let last = 0;
  try {
    for (const r of db.prepare(`SELECT rowid AS "__rowid", ${list.join(', ')} FROM ${quote(table)} ORDER BY rowid`).iterate() as IterableIterator<Rec>) {
      last = Number(r.__rowid);
      yield* toRows(r, last);
    }
  } catch (e) {
    yield makeRow('system', `parser: unreadable file (table ${table} could not be read past rowid ${last}: ${(e as Error).message.split('\n')[0]})`, { tag: 'unreadable' });
  }
}
