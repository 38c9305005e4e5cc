import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { normalizeTimestamp } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser, describeJson, readJsonObject } from './common.js';
import { COPILOT_PATTERNS, sessionIdFromRel } from './paths.js';

const EXPECTED = '{"snapshots": [{...}, ...]}';

/**
 * The /rewind file snapshots: rewind-file-snapshots/index.json (1.0.98) and the older
 * rewind-snapshots/index.json (1.0.59/1.0.60, real corpus). Each snapshot repeats the prompt
 * it precedes (a secondary user row; its time was never measured against the prompt's, hence
 * the one-hour tolerance) and lists the files it saved (a system row no other source has).
 *
 * The older shape differs: `version` for `schema`, per-file entries without `path` (the paths
 * sit in a top-level `filePathMap` under the same keys) and without line counts, the snapshot's
 * counts as `workspaceLinesAdded`/`workspaceLinesRemoved` (the workspace's diff, when present at
 * all), plus `gitCommit`/`gitBranch`, not read: project and branch come from the session's facts.
 */
export const copilotSnapshotsParser: Parser = copilotParser({
  name: 'rewind-snapshots',
  patterns: COPILOT_PATTERNS.snapshots,
  secondary: true,
  toleranceSeconds: 3600,
  parse: parseSnapshots,
});

async function* parseSnapshots(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, EXPECTED, { ctx, key: 'snapshots' });
  if ('row' in r) {
    yield r.row;
    return;
  }
  const list = r.value.snapshots;
  if (!Array.isArray(list)) {
    yield unreadableRow(`expected JSON ${EXPECTED}, found snapshots as ${list === undefined ? 'absent' : describeJson(list)}`);
    return;
  }
  const pathMap = isObject(r.value.filePathMap) ? r.value.filePathMap : {};
  const session_id = sessionIdFromRel(a.rel);
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    const source_line = i + 1; // 1-based position in snapshots[]
    if (!isObject(s)) {
      yield badLineRow(`expected a snapshot object, found ${describeJson(s)}`, compactJson(s), source_line, { session_id });
      continue;
    }
    const ts = normalizeTimestamp(s.timestamp);
    if (!ts.ok && s.timestamp !== undefined) ctx.warn(`snapshot ${source_line}: ${ts.reason}`, source_line);
    const fields: Partial<Row> = { session_id, timestamp_utc: ts.ok ? ts.value : '', source_line };
    const prompt = asString(s.userMessage) ?? '';
    if (prompt !== '') yield makeRow('user', prompt, fields);
    yield makeRow('system', snapshotText(s, pathMap), { ...fields, tag: 'rewind_snapshot' });
  }
}

/** `rewind snapshot: <fileCount> files +<added> -<removed>: <path>, ...` (paths in the files object's order). */
export function snapshotText(s: JsonObject, pathMap: JsonObject = {}): string {
  const files = isObject(s.files) ? s.files : {};
  const paths = Object.keys(files).map((k) => {
    const f = files[k];
    // A file whose path is recorded nowhere is named by its key, so the row still counts it.
    return (isObject(f) ? asString(f.path) : undefined) ?? asString(pathMap[k]) ?? k;
  });
  const count = asString(s.fileCount) ?? String(paths.length);
  const added = asString(s.linesAdded) ?? asString(s.workspaceLinesAdded) ?? '?';
  const removed = asString(s.linesRemoved) ?? asString(s.workspaceLinesRemoved) ?? '?';
  const head = `rewind snapshot: ${count} files +${added} -${removed}`;
  return paths.length > 0 ? `${head}: ${paths.join(', ')}` : head;
}
