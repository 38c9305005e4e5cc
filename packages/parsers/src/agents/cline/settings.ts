/**
 * Settings of the Cline family, all flagged secret by the catalogs (API keys and MCP env values sit
 * beside them), read here for non-credential fields only: MCP servers (names of env and header
 * keys; values go to the analyzer as secrets) with their auto-approved tools, the approval, mode
 * and model settings of the extension's globalState (a JSON file, or its row in VS Code's
 * state.vscdb, a store mixed with other extensions' secrets), and the SDK's provider list.
 */
import { asArray, asObject, asString, describeJson, isObject, type JsonObject, pick } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, SqliteOpenError, tableNames } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonDoc } from './json-doc.js';
import type { ClineFamilyProfile } from './profile.js';
import { historyItemRows } from './task-files.js';
import { pushAll } from '../../sdk/push-all.js';

/** An MCP settings file (`cline_mcp_settings.json`, `mcp_settings.json`, a project's `.roo/mcp.json`). */
export async function* parseMcpSettings(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a, '', true);
  if (!doc.ok) return yield doc.row;
  if (!isObject(doc.value)) return yield unreadableRow(`expected a JSON object with "mcpServers", found ${describeJson(doc.value)}`, { timestamp_utc: a.mtime });
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const base = { scope: project ? ('project' as const) : ('user' as const), ...(project ? { project_path: project } : {}) };
  for (const s of mcpServersFromConfig(doc.value, base, ['mcpServers'])) ctx.mcp(s);
  const servers = asObject(asObject(doc.value)?.mcpServers) ?? {};
  for (const [name, entry] of Object.entries(servers)) {
    const e = asObject(entry);
    // Cline: autoApprove; Roo and Kilo: alwaysAllow. Tools listed there run without asking.
    const tools = [...(asArray(e?.autoApprove) ?? []), ...(asArray(e?.alwaysAllow) ?? [])].map((t) => asString(t) ?? '').filter((t) => t);
    if (tools.length) yield makeRow('system', `setting MCP ${name} auto-approves: ${tools.join(', ')}`, { timestamp_utc: a.mtime, project_path: project, tag: 'permission_setting' });
  }
}

const TAGS = { permission: 'permission_setting', mode: 'permission_mode', model: 'model_setting' } as const;

/** Rows for the profile's globalState keys, then the task list older builds kept there. */
function stateRows(state: JsonObject, profile: ClineFamilyProfile, ctx: ParseContext, mtime: string, source: string): Row[] {
  const rows: Row[] = [];
  for (const k of profile.stateKeys) {
    const v = pick(state, k.path);
    if (v === undefined || v === null) continue;
    // Only the keys of the table are ever printed: the rest of a globalState may hold credentials.
    rows.push(makeRow('system', `setting ${k.path}=${typeof v === 'string' ? v : compactJson(v)}`, { timestamp_utc: mtime, tag: TAGS[k.kind] }));
  }
  // Before per-task files (Cline: state/taskHistory.json; Roo: history_item.json) the task list was a globalState key.
  for (const [i, item] of (asArray(state.taskHistory) ?? []).entries()) {
    if (isObject(item)) pushAll(rows, historyItemRows(item, ctx, i + 1, `${source} taskHistory`));
  }
  return rows;
}

/** A globalState kept as a JSON file (`.cline/data/globalState.json`, the Roo CLI shim's `global-state.json`). */
export async function* parseStateFile(a: Artifact, ctx: ParseContext, profile: ClineFamilyProfile): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a, '', true);
  if (!doc.ok) return yield doc.row;
  const state = asObject(doc.value);
  if (!state) return yield makeRow('system', 'parser: unparseable global state (expected a JSON object)', { timestamp_utc: a.mtime, tag: 'bad_line' });
  yield* stateRows(state, profile, ctx, a.mtime, a.rel.split('/').pop() ?? a.rel);
}

/**
 * VS Code's global state.vscdb: `ItemTable(key, value)`, one row per extension holding its
 * globalState as JSON (key = the extension id as published; compared ignoring case). Only that
 * row is read; `secret://` rows (other extensions' and this one's encrypted keys) never are.
 */
export async function* parseStateDb(a: Artifact, ctx: ParseContext, profile: ClineFamilyProfile): AsyncGenerator<Row> {
  let db: Awaited<ReturnType<typeof openCollectedSqlite>>;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    return yield unreadableRow(e instanceof SqliteOpenError ? e.message : 'expected a readable SQLite database', { timestamp_utc: a.mtime });
  }
  try {
    if (!tableNames(db).has('ItemTable')) return;
    const rows = db.prepare('SELECT key, CAST(value AS TEXT) AS value FROM ItemTable WHERE lower(key) = ?').all(profile.extensionId.toLowerCase()) as { key: string; value: string | null }[];
    for (const r of rows) {
      let state: unknown;
      try {
        state = JSON.parse(r.value ?? '');
      } catch {
        yield makeRow('system', `parser: unparseable state.vscdb value for ${r.key} (expected JSON)`, { timestamp_utc: a.mtime, tag: 'bad_line' });
        continue;
      }
      if (isObject(state)) yield* stateRows(state, profile, ctx, a.mtime, 'state.vscdb');
    }
  } catch (e) {
    yield unreadableRow(`expected VS Code's ItemTable in state.vscdb: ${(e as Error).message.split('\n')[0]}`, { timestamp_utc: a.mtime });
  } finally {
    db.close();
  }
}

/** Cline SDK's `settings/providers.json`: the providers set up and their models (never the keys or URLs). */
export async function* parseProviders(a: Artifact): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a, '', true);
  if (!doc.ok) return yield doc.row;
  const o = asObject(doc.value);
  if (!o) return yield unreadableRow(`expected a JSON object with "providers", found ${describeJson(doc.value)}`, { timestamp_utc: a.mtime });
  const last = asString(o?.lastUsedProvider) ?? '';
  for (const [name, p] of Object.entries(asObject(o?.providers) ?? {})) {
    const s = asObject(asObject(p)?.settings);
    const model = asString(s?.model) ?? '';
    const updated = asString(asObject(p)?.updatedAt) ?? '';
    yield makeRow('system', `setting provider ${name}${model ? ` model=${model}` : ''}${name === last ? ' (last used)' : ''}`, { timestamp_utc: toUtc(updated) || a.mtime, model, tag: 'model_setting' });
  }
}
