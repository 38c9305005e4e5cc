import { asArray, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { tableNames } from '../../sdk/sqlite.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { contentTexts } from './content.js';
import { THREAD_HISTORY_DB_RE } from './paths.js';
import { openStore, type Rec, tableRows, text } from './sqlite-store.js';
import { epoch } from './state-db.js';

/** Items carry their own times; the turn's start is the fallback, within the hour of the rollout line. */
export const THREAD_HISTORY_TOLERANCE_SECONDS = 3600;

/** Item kinds the rollout holds in another shape (commands, patches, searches): no row from this copy. */
const SKIPPED = new Set(['commandexecution', 'filechange', 'mcptoolcall', 'websearch', 'contextcompaction', 'imagegeneration', 'sleep', 'dynamictoolcall', 'collabagenttoolcall', 'enteredreviewmode', 'exitedreviewmode', 'hookprompt']);

function itemRows(r: Rec, rowid: number, turnStart: Map<string, string>, ctx: ParseContext): Row[] {
  let item: JsonObject | undefined;
  try {
    item = asObject(JSON.parse(text(r.item_json)));
  } catch {
    item = undefined;
  }
  const thread = text(r.thread_id).toLowerCase();
  const base = { session_id: thread, source_line: rowid, timestamp_utc: epoch(r.created_at_ms, r.started_at_ms, r.completed_at_ms) || turnStart.get(`${thread}\u0000${text(r.turn_id)}`) || '', tag: 'thread_history' };
  if (!item) return [makeRow('system', `parser: unparseable thread item (expected item_json to be a JSON object): ${text(r.item_json).slice(0, 4096)}`, { ...base, tag: 'bad_line' })];
  const type = (asString(item.type) ?? '').toLowerCase();
  const texts = (v: unknown) => contentTexts(v).map((t) => t.text);
  switch (type) {
    case 'usermessage': {
      const t = texts(item.content).join('\n');
      return t ? [makeRow('user', t, base)] : [];
    }
    case 'agentmessage': {
      const t = asString(item.text) ?? texts(item.content).join('\n');
      return t ? [makeRow('assistant', t, base)] : [];
    }
    case 'reasoning': {
      if (!ctx.options.includeThinking) return [];
      const parts = [...(asArray(item.summary) ?? asArray(item.summary_text) ?? [])].map((x) => (typeof x === 'string' ? x : (asString(asObject(x)?.text) ?? '')));
      const t = parts.filter(Boolean).join('\n\n') || texts(item.content ?? item.raw_content).join('\n\n');
      return t ? [makeRow('thinking', t, base)] : [];
    }
    case 'plan':
      return [makeRow('system', `plan: ${asString(item.text) ?? ''}`, base)];
    default:
      if (!SKIPPED.has(type)) ctx.unknown(`thread_history:${asString(item.type) ?? '(no type)'}`, rowid);
      return [];
  }
}

async function* parseThreadHistory(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const o = await openStore(a);
  if (!o.ok) {
    yield o.row;
    return;
  }
  try {
    const tables = tableNames(o.db);
    const turnStart = new Map<string, string>();
    if (tables.has('thread_turns')) {
      for (const _ of tableRows(o.db, 'thread_turns', ['thread_id', 'turn_id', 'started_at'], (r) => {
        turnStart.set(`${text(r.thread_id).toLowerCase()}\u0000${text(r.turn_id)}`, epoch(r.started_at));
        return [];
      }));
    }
    if (tables.has('thread_items')) yield* tableRows(o.db, 'thread_items', ['thread_id', 'turn_id', 'item_json', 'created_at_ms', 'started_at_ms', 'completed_at_ms'], (r, n) => itemRows(r, n, turnStart, ctx));
  } finally {
    o.db.close();
  }
}

/** `thread_history_<n>.sqlite`: the turn items of paginated-history threads, a projection of the rollout (secondary). */
export const threadHistoryParser: Parser = {
  agent: 'codex-cli',
  name: 'thread-history-db',
  patterns: ['<codex>/thread_history_<n>.sqlite'],
  wants: (rel) => THREAD_HISTORY_DB_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => THREAD_HISTORY_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: (a, ctx) => parseThreadHistory(a, ctx),
};
