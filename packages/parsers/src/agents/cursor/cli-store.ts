import { createHash } from 'node:crypto';
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { isAgentWorktree } from './composer-rows.js';
import { messageRows } from './messages.js';
import { cliStoreIds } from './paths.js';
import { readRootBlob } from './protobuf.js';
import { pushAll } from '../../sdk/push-all.js';

/** The store's meta row: hex-encoded JSON (2025.10.21), or JSON as it is. */
export function decodeMeta(raw: unknown): JsonObject | undefined {
  const s = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '';
  const text = /^(?:[0-9a-f]{2})+$/i.test(s) ? Buffer.from(s, 'hex').toString('utf8') : s;
  try {
    const v = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function readMeta(db: SqliteDatabase): JsonObject | undefined {
  const rows = db.prepare('SELECT key, value FROM meta ORDER BY rowid').all() as { key: unknown; value: unknown }[];
  for (const r of rows) {
    const m = decodeMeta(r.value);
    if (m && (m.agentId !== undefined || m.latestRootBlobId !== undefined)) return m;
  }
  return undefined;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

function parseBlob(data: unknown): JsonObject | undefined {
  const b = Buffer.isBuffer(data) ? data : typeof data === 'string' ? Buffer.from(data, 'utf8') : undefined;
  if (!b || b.length === 0 || (b[0] !== 0x7b && b[0] !== 0x20 && b[0] !== 0x0a)) return undefined;
  try {
    const v = JSON.parse(b.toString('utf8'));
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

interface Message {
  value: JsonObject;
  line: number;
}

// The messages in conversation order from the root blob; without a readable root, every JSON blob
// in rowid order (the caller tags those rows `unordered`).
function messages(db: SqliteDatabase, rootId: string): { list: Message[]; ordered: boolean; workspace: string; missing: number } {
  const get = db.prepare('SELECT rowid AS rowid, data FROM blobs WHERE id = ?');
  const root = rootId ? (get.get(rootId) as { rowid: number; data: unknown } | undefined) : undefined;
  const parsed = root && Buffer.isBuffer(root.data) ? readRootBlob(root.data) : undefined;
  if (parsed) {
    const list: Message[] = [];
    let missing = 0;
    for (const id of parsed.messageIds) {
      const r = get.get(id) as { rowid: number; data: unknown } | undefined;
      const v = r ? parseBlob(r.data) : undefined;
      if (r && v) list.push({ value: v, line: r.rowid });
      else missing++;
    }
    return { list, ordered: true, workspace: parsed.workspace, missing };
  }
  const list: Message[] = [];
  for (const r of db.prepare('SELECT rowid AS rowid, data FROM blobs ORDER BY rowid').iterate() as IterableIterator<{ rowid: number; data: unknown }>) {
    const v = parseBlob(r.data);
    if (v && typeof v.role === 'string') list.push({ value: v, line: r.rowid });
  }
  return { list, ordered: false, workspace: '', missing: 0 };
}

/**
 * A cursor-agent chat store (`chats/<md5 of cwd>/<agent id>/store.db`): the session from its meta
 * row (hex-encoded JSON), then the messages the root blob lists, in order. Messages carry no time:
 * their rows take the session's createdAt, tagged `time_session`. The workspace is the root blob's
 * path, else the one the first `<user_info>` names; it is checked against the folder's md5.
 */
export async function* parseCliStore(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  let db: SqliteDatabase;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    yield unreadableRow((e as Error).message);
    return;
  }
  try {
    const tables = tableNames(db);
    if (!tables.has('meta') || !tables.has('blobs')) {
      yield unreadableRow(`expected cursor-agent's meta and blobs tables in ${a.rel}, found ${[...tables].join(', ') || 'no table'}`);
      return;
    }
    const ids = cliStoreIds(a.rel);
    const meta = readMeta(db);
    if (!meta) yield makeRow('system', 'parser: the meta row is missing or not hex-encoded JSON; messages are read without the session record', { session_id: ids.agentId, tag: 'bad_line' });
    const session = asString(meta?.agentId) || ids.agentId;
    const created = toUtc(meta?.createdAt);
    const model = asString(meta?.lastUsedModel) ?? '';
    const msgs = messages(db, asString(meta?.latestRootBlobId) ?? '');
    let cwd = msgs.workspace;
    const candidates: string[] = [];
    const base: Partial<Row> = { session_id: session, model };
    const env = { ctx, kindPrefix: 'cli message', onWorkspace: (p: string) => candidates.push(p) };
    const body: Row[] = [];
    for (const m of msgs.list) {
      const fields: Partial<Row> = { ...base, timestamp_utc: created, source_line: m.line, tag: msgs.ordered ? 'time_session' : 'unordered' };
      const mm = asString(asObject(asObject(m.value.providerOptions)?.cursor)?.modelName);
      if (mm) fields.model = mm;
      pushAll(body, messageRows(asString(m.value.role) ?? '', m.value.content, { ...env, fields, line: m.line }));
    }
    if (!cwd) cwd = candidates[0] ?? '';
    const verified = cwd !== '' && md5(cwd) === ids.cwdHash;
    if (cwd) ctx.fact({ session_id: session, key: 'cwd', value: cwd, priority: verified ? 1 : 2 });
    ctx.fact({ session_id: session, key: 'client', value: 'cursor-agent', priority: 1 });
    const head = { ...base, timestamp_utc: created, project_path: cwd, source_line: null };
    const mode = asString(meta?.mode);
    if (meta) yield makeRow('system', `session start: cursor-agent${mode ? ` mode=${mode}` : ''}`, { ...head, tag: 'session_start' });
    if (isAgentWorktree(cwd)) yield makeRow('system', `scratch directory: ${cwd} (agent worktree)`, { ...head, tag: 'scratch_directory' });
    const name = asString(meta?.name);
    if (name) yield makeRow('system', `session name: ${name}`, { ...head, tag: 'session_name' });
    if (model) yield makeRow('system', `model: ${model}`, { ...head, tag: 'model' });
    if (msgs.missing) yield makeRow('system', `messages missing: the root blob lists ${msgs.missing} message(s) the store does not hold as JSON`, { ...head, tag: 'messages_missing' });
    for (const r of body) yield { ...r, project_path: r.project_path || cwd };
  } catch (e) {
    yield makeRow('system', `parser: the database could not be read to the end (${(e as Error).message.split('\n')[0]}); the rows above were read before the error`, { tag: 'unreadable' });
  } finally {
    db.close();
  }
}
