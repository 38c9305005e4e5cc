import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import type { Row } from '../../sdk/types.js';
import { pathOfUriValue } from './text.js';

/** One ItemTable value with its rowid. */
export interface Item {
  rowid: number;
  value: string;
}

/**
 * Read the ItemTable values of the keys named, and only those: the table also holds the account's
 * tokens (`cursorAuth/accessToken`, `refreshToken`, `secret://...`), which are never selected.
 */
export function readItems(db: SqliteDatabase, keys: readonly string[]): Map<string, Item> {
  const out = new Map<string, Item>();
  if (keys.length === 0) return out;
  const stmt = db.prepare('SELECT rowid AS rowid, key, value FROM ItemTable WHERE key = ?');
  for (const k of keys) {
    const r = stmt.get(k) as { rowid: number; key: string; value: unknown } | undefined;
    if (r && r.value !== null && r.value !== undefined) out.set(k, { rowid: r.rowid, value: Buffer.isBuffer(r.value) ? r.value.toString('utf8') : String(r.value) });
  }
  return out;
}

/** The reactive-storage key that holds the application's settings (composerState among them). */
export const REACTIVE_KEY = 'src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser';

/** Where a composer belongs, from the global header list (Cursor 3.0+). */
export interface ComposerHeader {
  project: string;
  workspaceId: string;
}

/** `composer.composerHeaders` `allComposers[]`: each composer's project (its workspace folder's URI). */
export function composerHeaders(raw: string | undefined): Map<string, ComposerHeader> {
  const out = new Map<string, ComposerHeader>();
  if (!raw) return out;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return out;
  }
  for (const h of asArray(asObject(v)?.allComposers) ?? []) {
    const o = asObject(h);
    const id = asString(o?.composerId);
    if (!o || !id) continue;
    const ws = asObject(o.workspaceIdentifier);
    out.set(id, { project: pathOfUriValue(ws?.uri), workspaceId: asString(ws?.id) ?? '' });
  }
  return out;
}

/** `signed in: <email> plan=<plan> signup=<type>` from the cached account fields (never a token). */
export function signInRow(items: Map<string, Item>): Row | undefined {
  const email = items.get('cursorAuth/cachedEmail');
  if (!email || email.value === '') return undefined;
  const parts = [`signed in: ${email.value}`];
  const plan = items.get('cursorAuth/stripeMembershipType')?.value;
  if (plan) parts.push(`plan=${plan}`);
  const signup = items.get('cursorAuth/cachedSignUpType')?.value;
  if (signup) parts.push(`signup=${signup}`);
  return makeRow('system', parts.join(' '), { source_line: email.rowid, tag: 'signed_in' });
}

// composerState keys that say what the agent may do without asking: the auto-run ("yolo") switch,
// its prompt, command allow and deny lists, MCP tools allowed, the file guards, and auto-continue.
const PERMISSION_KEY = /^(?:useYoloMode|mcpAllowedTools|yolo.*|shouldAutoContinueToolCall|autoAcceptWebSearchTool|autoApplyFilesOutsideContext)$/;

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/**
 * One `permission setting:` row per auto-run setting of the reactive storage's `composerState`
 * (booleans included: `false` is a setting too), and one per mode whose `autoRun` is set.
 */
export function composerStateRows(item: Item | undefined, mtime: string): Row[] {
  if (!item) return [];
  let v: unknown;
  try {
    v = JSON.parse(item.value);
  } catch {
    return [makeRow('system', `parser: unparseable value for ${REACTIVE_KEY}`, { source_line: item.rowid, tag: 'bad_line' })];
  }
  const cs = asObject(asObject(v)?.composerState);
  if (!cs) return [];
  const rows: Row[] = [];
  const at = { timestamp_utc: mtime, source_line: item.rowid, tag: 'permission_setting' as const };
  for (const [k, val] of Object.entries(cs)) {
    if (PERMISSION_KEY.test(k) && !empty(val)) rows.push(makeRow('system', `permission setting: composerState.${k}=${compactJson(val)}`, at));
  }
  for (const m of asArray(cs.modes4) ?? []) {
    const mode = asObject(m);
    const id = asString(mode?.id);
    if (id && mode && typeof mode.autoRun === 'boolean') rows.push(makeRow('system', `permission setting: composerState.modes4.${id}.autoRun=${mode.autoRun}`, at));
  }
  return rows;
}

/** `user rules: <text>` from `aicontext.personalContext` (the user's global rules), when set. */
export function personalContextRow(item: Item | undefined, mtime: string): Row | undefined {
  if (!item || item.value.trim() === '') return undefined;
  return makeRow('system', `user rules: ${item.value}`, { timestamp_utc: mtime, source_line: item.rowid, tag: 'user_rules' });
}
