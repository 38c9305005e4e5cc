/**
 * A local-backend transcript, `.letta/lc-local-backend/conversations/<key>/messages.jsonl`
 * (letta-ai/letta-code src/backend/local/local-store.ts, local-transcript.ts): a header
 * `{type: "session", version: 3, id, timestamp, cwd}`, then `message` and `compaction` entries
 * (pi's session entries), or, in a transcript written before schema 2, bare messages. Letta appends
 * a message again each time it changes (the same `message.id`), and its readers keep the last:
 * so does this parser, in a first pass over the file, and says how many earlier copies it left.
 */
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRows, type RowBase } from './message-rows.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/**
 * A time, or '' for one of the placeholders Letta gives records it cannot date (any instant of
 * 2026-01-01 UTC; local-store.ts isSyntheticLocalTimestamp), which it repairs itself from file times.
 */
export function lettaTime(v: unknown): string {
  const t = toUtc(v);
  return t.startsWith('2026-01-01T') ? '' : t;
}

/** The session a conversation folder names: its name is base64url of `conversation:<id>` or `default:<agentId>`. */
export function conversationOf(rel: string): string {
  const dir = rel.split('/').at(-2) ?? '';
  const decoded = /^[A-Za-z0-9_-]+$/.test(dir) ? Buffer.from(dir, 'base64url').toString('utf8') : '';
  if (decoded.startsWith('conversation:')) return decoded.slice('conversation:'.length);
  return decoded.startsWith('default:') ? decoded : dir;
}

const messageOf = (o: JsonObject): JsonObject | undefined => (o.type === 'message' ? obj(o.message) : o.type === undefined && typeof o.role === 'string' ? o : undefined);

/** The transcript's rows, each message in its last form. */
export async function* parseLettaTranscript(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const last = new Map<string, number>();
  for await (const l of readJsonLines(a.stream())) {
    const m = l.value ? messageOf(l.value) : undefined;
    if (m && str(m.id)) last.set(str(m.id), l.line);
  }
  let session = conversationOf(a.rel);
  let cwd = '';
  let start = '';
  let superseded = 0;
  const lastModel = { value: '' };
  // A message with no time of its own takes the session's, else the file's.
  const fallback = (): Pick<RowBase, 'timestamp_utc' | 'tag'> => (start ? { timestamp_utc: start, tag: 'time_session' } : a.mtime ? { timestamp_utc: a.mtime, tag: 'time_file' } : { timestamp_utc: '' });
  const base = (line: number, ...times: unknown[]): RowBase => {
    const t = times.map(lettaTime).find((x) => x !== '');
    return { session_id: session, project_path: cwd, source_line: line, ...(t ? { timestamp_utc: t } : fallback()) };
  };
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!o) {
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, { session_id: session, project_path: cwd });
      continue;
    }
    const type = str(o.type);
    const m = messageOf(o);
    if (type === 'session') {
      session = str(o.id) || session;
      cwd = str(o.cwd);
      start = lettaTime(o.timestamp);
      if (cwd) ctx.fact({ session_id: session, key: 'cwd', value: cwd, priority: 1 });
      yield makeRow('system', `session start: ${session} version=${str(o.version) || '-'}${cwd ? ` cwd=${cwd}` : ''}`, { ...base(l.line, o.timestamp), tag: 'session_start' });
    } else if (m) {
      if (str(m.id) && last.get(str(m.id)) !== l.line) {
        superseded++;
        continue;
      }
      yield* messageRows(m, base(l.line, m.timestamp, obj(m.metadata).created_at, o.timestamp), ctx, lastModel);
    } else if (type === 'compaction') {
      const before = Number(o.tokensBefore);
      yield makeRow('system', `context compacted${Number.isFinite(before) && before > 0 ? ` (${before} tokens before)` : ''}: ${str(o.summary)}`, { ...base(l.line, o.timestamp), tag: 'compaction' });
    } else if (type === 'topic') {
      yield makeRow('system', `topic: ${str(o.title)}${str(o.summary) ? ` (${str(o.summary)})` : ''}`, base(l.line, o.timestamp));
    } else {
      ctx.unknown(`entry ${type || '(no type)'}`, l.line);
      yield makeRow('system', `entry: ${compactJson(o)}`, base(l.line, o.timestamp));
    }
  }
  if (superseded > 0) ctx.warn(`${a.rel}: ${superseded} earlier copies of messages written again later (Letta appends a message each time it changes); the last copy of each gave the rows`);
}
