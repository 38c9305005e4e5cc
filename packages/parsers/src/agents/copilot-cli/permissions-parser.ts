import { compactJson } from '../../sdk/compact-json.js';
import { isObject } from '../../sdk/decode.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser, describeJson, readJsonObject } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';

const EXPECTED = '{"locations": {<path>: {"tool_approvals": [...], "allowed_directories": [...]}}}';
const LISTS = ['tool_approvals', 'allowed_directories'] as const;

/**
 * permissions-config.json, the standing grants per project location ("allow always"): one
 * system row per tool_approvals and allowed_directories entry, at the file's mtime (the only
 * time there is), project_path the location, no session. Each entry is printed as compact JSON
 * (a directory therefore in quotes); source_line is its 1-based index in its list. A file cut
 * mid-write keeps its complete grants, with a warning (readJsonObject's salvage). A location
 * key other than the two lists is an unknown record kind (`locations.*.<key>`, ctx.unknown).
 */
export const copilotPermissionsParser: Parser = copilotParser({
  name: 'permissions-config',
  patterns: COPILOT_PATTERNS.permissions,
  secondary: false,
  toleranceSeconds: 0,
  parse: parsePermissions,
});

async function* parsePermissions(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, EXPECTED, { ctx, key: 'locations' });
  if ('row' in r) {
    yield r.row;
    return;
  }
  const locations = r.value.locations;
  if (!isObject(locations)) {
    yield unreadableRow(`expected JSON ${EXPECTED}, found locations as ${locations === undefined ? 'absent' : describeJson(locations)}`);
    return;
  }
  const timestamp_utc = toUtc(a.mtime);
  for (const [path, loc] of Object.entries(locations)) {
    const at = { project_path: path, timestamp_utc };
    if (!isObject(loc)) {
      yield badLineRow(`expected locations.${path} to be an object, found ${describeJson(loc)}`, compactJson(loc), null, at);
      continue;
    }
    // A key a newer CLI adds beside the two lists is counted, not dropped silently.
    for (const key of Object.keys(loc)) if (!(LISTS as readonly string[]).includes(key)) ctx.unknown(`locations.*.${key}`);
    for (const list of LISTS) {
      const entries = loc[list];
      if (entries === undefined || entries === null) continue;
      if (!Array.isArray(entries)) {
        yield badLineRow(`expected locations.${path}.${list} to be an array, found ${describeJson(entries)}`, compactJson(entries), null, at);
        continue;
      }
      for (let i = 0; i < entries.length; i++) {
        const text = `permission setting: locations.${path}.${list}=${compactJson(entries[i])}`;
        yield makeRow('system', text, { ...at, source_line: i + 1, tag: 'permission_setting' });
      }
    }
  }
}
