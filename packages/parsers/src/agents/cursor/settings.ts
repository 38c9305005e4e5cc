import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, describeJson, isObject } from '../../sdk/decode.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { projectOfSlugFolder } from './transcripts.js';

/**
 * A small JSON file read whole, or the row saying why not. `secret`: the file may hold keys, so
 * the reason never quotes it (JSON.parse messages do).
 */
export async function readJson(a: Artifact, secret: boolean): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), 16 * 1024 * 1024);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason) };
  try {
    return { ok: true, value: JSON.parse(decodeText(r.buffer)) };
  } catch (e) {
    return { ok: false, row: unreadableRow(secret ? 'invalid JSON; the parse error is not printed: the file may hold keys' : `invalid JSON: ${(e as Error).message}`) };
  }
}

function setting(text: string, a: Artifact, project = ''): Row {
  return makeRow('system', `permission setting: ${text}`, { timestamp_utc: a.mtime, project_path: project, tag: 'permission_setting' });
}

/**
 * `cli-config.json` (the CLI's settings; flagged: some builds keep account fields in it): one row
 * per `permissions.allow` and `permissions.deny` entry, the approval mode and the sandbox. Nothing
 * else of the file is read.
 */
export async function* parseCliConfig(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const o = asObject(r.value);
  if (!o) {
    yield unreadableRow('expected a JSON object (cursor-agent cli-config.json)');
    return;
  }
  const perms = asObject(o.permissions);
  for (const list of ['allow', 'deny'] as const) for (const e of asArray(perms?.[list]) ?? []) if (typeof e === 'string') yield setting(`permissions.${list}=${e}`, a);
  const mode = asString(o.approvalMode);
  if (mode) yield setting(`approvalMode=${mode}`, a);
  if (o.sandbox !== undefined && o.sandbox !== null) yield setting(`sandbox=${compactJson(o.sandbox)}`, a);
}

/** `~/.cursor/permissions.json` (overrides the IDE's auto-run lists): one row per entry of each list. */
export async function* parsePermissions(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  if (!isObject(r.value)) {
    yield unreadableRow(`expected a JSON object of permission lists, found ${describeJson(r.value)}`, { timestamp_utc: a.mtime });
    return;
  }
  for (const [k, v] of Object.entries(r.value)) {
    const list = asArray(v);
    if (list) for (const e of list) yield setting(`${k}=${typeof e === 'string' ? e : compactJson(e)}`, a);
    else yield setting(`${k}=${compactJson(v)}`, a);
  }
}

/** `projects/<slug>/mcp-approvals.json`: the MCP servers the user approved for that workspace (`<name>-<hash>`). */
export async function* parseMcpApprovals(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const project = await projectOfSlugFolder(a, 0);
  const list = asArray(r.value);
  if (!list) {
    yield unreadableRow(`expected a JSON array of approved MCP servers, found ${describeJson(r.value)}`, { timestamp_utc: a.mtime });
    return;
  }
  for (const [i, e] of list.entries()) {
    if (typeof e === 'string') yield setting(`mcp server approved: ${e}`, a, project);
    else yield badLineRow(`expected entry ${i + 1} to be a server name, found ${describeJson(e)}`, compactJson(e), null, { timestamp_utc: a.mtime, project_path: project });
  }
}

/** `projects/<slug>/.workspace-trusted`: when the user trusted a workspace, and which. */
export async function* parseWorkspaceTrusted(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const o = asObject(r.value);
  const path = asString(o?.workspacePath) ?? '';
  const at = toUtc(o?.trustedAt);
  yield makeRow('system', `permission setting: workspace trusted: ${path || '(no path)'}`, { timestamp_utc: at || a.mtime, project_path: path, tag: 'permission_setting' });
}

function hookCommands(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  const list = asArray(v) ?? [v];
  return list.flatMap((h) => (typeof h === 'string' ? [h] : isObject(h) ? [asString(h.command) ?? compactJson(h)] : []));
}

/**
 * `hooks.json` (user `~/.cursor`, a project's `.cursor/`, or system-wide): one `hook:` row per
 * command configured for an event, at the file's mtime. Hooks run outside the agent with the
 * user's rights on every event they name.
 */
export async function* parseHooks(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const scope = a.scope === 'project' ? 'project' : a.scope === 'system' ? 'system' : 'user';
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const hooks = asObject(asObject(r.value)?.hooks);
  if (!hooks) {
    yield unreadableRow('expected {"hooks": {<event>: [{"command": ...}]}}');
    return;
  }
  for (const [event, v] of Object.entries(hooks)) {
    for (const cmd of hookCommands(v)) yield makeRow('system', `hook (${scope}) ${event}: ${cmd}`, { timestamp_utc: a.mtime, project_path: project, tag: 'hook' });
  }
}
