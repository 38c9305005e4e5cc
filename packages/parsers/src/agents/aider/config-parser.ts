/**
 * `.aider.conf.yml` (home or project; flagged secret: api-key entries sit beside the options): read
 * for the options that say how aider ran, never anything else. `yes-always` answers every confirm
 * question without the user (the transcript's "y" answers then are not a person's); the history
 * file options move the transcripts elsewhere (aider/args.py).
 */
import { asObject, describeJson } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { parseYamlGuarded } from '../../sdk/yaml-guard.js';

const KEYS: Readonly<Record<string, string>> = {
  model: 'model_setting',
  'editor-model': 'model_setting',
  'weak-model': 'model_setting',
  architect: 'model_setting',
  'edit-format': 'model_setting',
  'yes-always': 'permission_setting',
  'auto-commits': 'permission_setting',
  'dirty-commits': 'permission_setting',
  'auto-test': 'permission_setting',
  'auto-lint': 'permission_setting',
  'test-cmd': 'permission_setting',
  'lint-cmd': 'permission_setting',
  'chat-history-file': 'setting',
  'input-history-file': 'setting',
  'llm-history-file': 'setting',
  'restore-chat-history': 'setting',
  'analytics-disable': 'setting',
  read: 'setting',
  file: 'setting',
};

/** `.aider.conf.yml` → one row per known option, dated by the file's mtime. */
export async function* parseAiderConfig(a: Artifact): AsyncGenerator<Row> {
  const r = await readSmall(a.stream(), 4 * 1024 * 1024);
  if (!r.ok) return yield unreadableRow(r.reason, { timestamp_utc: a.mtime });
  let doc: unknown;
  try {
    doc = parseYamlGuarded(decodeText(r.buffer), { maxAliasCount: 100, uniqueKeys: false });
  } catch (e) {
    const pos = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    // The text is never printed: the file may hold keys.
    return yield unreadableRow(`expected YAML, found text that cannot be parsed${pos ? ` (line ${pos})` : ''}`, { timestamp_utc: a.mtime });
  }
  const o = asObject(doc);
  // An empty file (or one of comments) sets nothing; a list or a scalar is not a config.
  if (!o) return doc === null || doc === undefined ? undefined : yield unreadableRow(`expected a YAML mapping of options, found ${describeJson(doc)}`, { timestamp_utc: a.mtime });
  for (const [key, tag] of Object.entries(KEYS)) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    yield makeRow('system', `setting ${key}=${typeof v === 'string' ? v : compactJson(v)}`, { timestamp_utc: a.mtime, project_path: a.projectRoot ?? '', tag });
  }
}
