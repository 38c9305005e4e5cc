import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { normalizeTimestamp, toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser, describeJson, readText } from './common.js';
import { COPILOT_PATTERNS, sessionIdFromRel } from './paths.js';
import { yamlLib } from '../../sdk/libs.js';
import { YAML_MAX_CHARS, YAML_MAX_DEPTH, yamlTooDeep } from '../../sdk/yaml-guard.js';

/** A YAML file with more aliases than this is an alias bomb, not a workspace.yaml. */
const MAX_ALIASES = 100;

/**
 * session-state/<id>/workspace.yaml: the session's name, metadata, sync marker (mc_ keys) and,
 * for a session with no events.jsonl, its scratch directory. Primary (not secondary): its name
 * row is the one the store's copy is deduplicated against.
 *
 * Rows: `session name:` (from `name`, or `summary` in
 * older files; none when both are absent), `session metadata:`, then `session synced:` and
 * `scratch directory:` when they apply. source_line is the line of the key each row is read from.
 * A key written twice warns and the last value is read; a file that is not valid YAML (cut
 * mid-write, hand-edited) warns with the bad line and is read by its top-level `key: value`
 * lines, so one bad line does not cost the session's name, cwd and sync marker.
 */
export const copilotWorkspaceParser: Parser = copilotParser({
  name: 'workspace',
  patterns: COPILOT_PATTERNS.workspace,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseWorkspace,
});

async function* parseWorkspace(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const t = await readText(a);
  if ('row' in t) {
    yield t.row;
    return;
  }
  // A workspace.yaml is a few hundred bytes. One far larger, or nested deep (hostile), is not
  // given to the YAML library, whose time and memory grow fast there (a megabyte of `[` took
  // 850 MB): it is read by its top-level lines, as an invalid one is.
  const refused = t.text.length > YAML_MAX_CHARS ? `is ${t.text.length} characters, over the ${YAML_MAX_CHARS} the YAML reader is given` : yamlTooDeep(t.text) ? `nests deeper than ${YAML_MAX_DEPTH} levels` : undefined;
  let parsed: ReturnType<typeof parseYaml> = refused ? { error: `expected a YAML mapping, found a file that ${refused}`, reason: refused, line: 1 } : parseYaml(t.text);
  if ('error' in parsed && parsed.line !== undefined) {
    // Invalid YAML (a file cut mid-write, a hand edit): the file is flat, so its top-level
    // `key: value` lines still say what they say.
    const flat = flatKeys(t.text);
    if (flat.lines.size > 0) {
      ctx.warn(refused ? `workspace.yaml ${refused}; its top-level key: value lines were read one by one` : `workspace.yaml is not valid YAML (${parsed.reason}) at line ${parsed.line}; its top-level key: value lines were read one by one`, parsed.line);
      parsed = { ...flat, repeated: [] };
    }
  }
  if ('error' in parsed) {
    yield unreadableRow(parsed.error, { source_line: parsed.line ?? null });
    return;
  }
  const { value: w, lines, repeated } = parsed;
  for (const k of repeated) ctx.warn(`workspace.yaml key ${k} written more than once; the last value is read`, lines.get(k));
  const str = (k: string): string => asString(w[k]) ?? '';
  const session_id = sessionIdFromRel(a.rel) || str('id');
  const cwd = str('cwd');
  const created = normalizeTimestamp(w.created_at);
  if (!created.ok && w.created_at !== undefined && w.created_at !== null) ctx.warn(`workspace.yaml created_at: ${created.reason}`, lines.get('created_at'));
  // project_path and git_branch stay empty: the analyzer fills them from the session's facts,
  // where the log's latest cwd outranks this file's (seed, Columns).
  const base = { session_id, timestamp_utc: created.ok ? created.value : '' };
  const line = (k: string): number | null => lines.get(k) ?? null;

  if (cwd) ctx.fact({ session_id, key: 'cwd', value: cwd, priority: 2 });
  // 1.0.102 writes the branch too (live run); the log's latest context.branch outranks it.
  if (str('branch')) ctx.fact({ session_id, key: 'branch', value: str('branch'), priority: 2 });
  const nameKey = str('name') !== '' ? 'name' : 'summary';
  const name = str(nameKey);
  if (name !== '') {
    ctx.fact({ session_id, key: 'name', value: name, priority: 1 });
    yield makeRow('system', `session name: ${name}`, { ...base, source_line: line(nameKey), tag: 'session_name' });
  }
  const client = str('client_name');
  // Priority 2: the client's own mark (VS Code's vscode.metadata.json origin) outranks what the CLI recorded.
  if (client) ctx.fact({ session_id, key: 'client', value: client, priority: 2 });
  const meta = `session metadata: user_named=${str('user_named')} forks=${str('fork_count')} compactions=${str('summary_count')} client=${client}`;
  const metaLine = line('user_named') ?? line('client_name') ?? line('fork_count') ?? line('summary_count');
  yield makeRow('system', meta, { ...base, source_line: metaLine, tag: 'session_metadata' });

  const mc = str('mc_session_id');
  if (mc !== '') {
    ctx.fact({ session_id, key: 'synced', value: 'yes', priority: 1 });
    const or = (k: string) => str(k) || '-';
    const text = `session synced: remote session ${mc} task ${or('mc_task_id')} last event ${or('mc_last_event_id')} remote_steerable=${or('remote_steerable')}`;
    // The mc_ keys are added by a resume that leaves updated_at alone: the file's mtime is the only time.
    yield makeRow('system', text, { ...base, timestamp_utc: toUtc(a.mtime), source_line: line('mc_session_id'), tag: 'sync' });
  }
  if (cwd !== '' && a.sibling('events.jsonl') === undefined) {
    // The one row that names its directory: project_path is the scratch directory itself.
    yield makeRow('system', `scratch directory: ${cwd}`, { ...base, project_path: cwd, source_line: line('cwd'), tag: 'scratch_directory' });
  }
}

/**
 * Parse safely: core schema (timestamps stay strings), aliases capped; top-level key lines kept.
 * A key written twice does not cost the whole file: the last value and line are read, and the
 * key is listed in `repeated`.
 */
export function parseYaml(text: string): { value: JsonObject; lines: Map<string, number>; repeated: string[] } | { error: string; reason?: string; line?: number } {
  const { isMap, isScalar, LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  try {
    const doc = parseDocument(text, { schema: 'core', lineCounter: lc, prettyErrors: false, uniqueKeys: false });
    if (doc.errors.length > 0) {
      const { message, pos } = doc.errors[0];
      const line = lc.linePos(pos[0]).line;
      return { error: `expected a YAML mapping, found invalid YAML: ${message} at line ${line}`, reason: message, line };
    }
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIASES });
    if (!isObject(value)) return { error: `expected a YAML mapping of workspace keys, found ${describeJson(value)}` };
    const lines = new Map<string, number>();
    const repeated = new Set<string>();
    if (isMap(doc.contents)) {
      for (const item of doc.contents.items) {
        if (!isScalar(item.key) || !item.key.range) continue;
        const key = String(item.key.value);
        if (lines.has(key)) repeated.add(key);
        lines.set(key, lc.linePos(item.key.range[0]).line);
      }
    }
    return { value, lines, repeated: [...repeated] };
  } catch (e) {
    return { error: `expected a YAML mapping, found YAML that cannot be read safely: ${(e as Error).message}` };
  }
}

const FLAT_KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]+(.*))?$/;

/**
 * The top-level `key: value` lines of a flat YAML file that does not parse, read one by one:
 * quoted values unquoted (an unterminated quote, a cut file, keeps what follows it), `null`,
 * `~` and nothing read as null, a plain value taken as written up to a ` #` comment. Indented
 * and other lines are passed over. The last of a repeated key wins, as in {@link parseYaml}.
 */
export function flatKeys(text: string): { value: JsonObject; lines: Map<string, number> } {
  const value: JsonObject = Object.create(null);
  const lines = new Map<string, number>();
  const all = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const m = FLAT_KEY.exec(all[i]);
    if (!m) continue;
    value[m[1]] = flatValue((m[2] ?? '').trim());
    lines.set(m[1], i + 1);
  }
  return { value, lines };
}

function flatValue(raw: string): string | null {
  if (raw === '' || raw === '~' || /^null$/i.test(raw)) return null;
  if (raw.startsWith('"')) {
    const end = raw.lastIndexOf('"');
    if (end > 0) {
      try {
        return JSON.parse(raw.slice(0, end + 1)) as string;
      } catch {
        // Not JSON escapes after all: fall through to the text between the quotes.
      }
      return raw.slice(1, end);
    }
    return raw.slice(1);
  }
  if (raw.startsWith("'")) {
    const end = raw.lastIndexOf("'");
    return (end > 0 ? raw.slice(1, end) : raw.slice(1)).replaceAll("''", "'");
  }
  return raw.replace(/\s+#.*$/, '');
}
