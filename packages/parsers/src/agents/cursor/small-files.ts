import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, describeJson } from '../../sdk/decode.js';
import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { readJson } from './settings.js';
import { parseYamlGuarded } from '../../sdk/yaml-guard.js';

/**
 * The CLI's `prompt_history.json` (secondary): one user row per entry (a string, or an object's
 * `text`/`prompt`), undated unless the entry says when, source_line its 1-based position.
 */
export async function* parsePromptHistory(a: Artifact): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const list = asArray(r.value);
  if (!list) {
    yield unreadableRow(`expected a JSON array of prompts, found ${describeJson(r.value)}`, { timestamp_utc: a.mtime });
    return;
  }
  for (const [i, e] of list.entries()) {
    const o = asObject(e);
    const text = typeof e === 'string' ? e : (asString(o?.text) ?? asString(o?.prompt) ?? asString(o?.display));
    if (text) yield makeRow('user', text, { timestamp_utc: toUtc(o?.timestamp ?? o?.createdAt), source_line: i + 1 });
    else if (text === undefined) yield badLineRow(`expected prompt ${i + 1} to be a string or an object with text, found ${describeJson(e)}`, compactJson(e), i + 1);
  }
}

/**
 * A terminal snapshot (`projects/<slug>/terminals/<n>.txt`): YAML front matter (pid, cwd,
 * last_command) above the terminal's text. One row for the terminal (its cwd as the project, at
 * the file's mtime) and one for the last command when recorded; the output stays in the file.
 */
export async function* parseTerminal(a: Artifact): AsyncGenerator<Row> {
  const front: string[] = [];
  let inFront = false;
  let bodyLines = 0;
  for await (const l of readLines(a.stream(), { maxLineBytes: 16 * 1024 * 1024 })) {
    if (l.line === 1 && l.text.trim() === '---') inFront = true;
    else if (inFront && l.text.trim() === '---') inFront = false;
    else if (inFront) front.push(l.text);
    else bodyLines++;
  }
  let meta: Record<string, unknown> = {};
  if (front.length > 0) {
    try {
      meta = asObject(parseYamlGuarded(front.join('\n'))) ?? {};
    } catch (e) {
      yield unreadableRow(`front matter is not YAML: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const cwd = asString(meta.cwd) ?? '';
  const name = a.rel.split('/').pop() ?? '';
  const parts = [`terminal: ${name}`];
  const pid = asString(meta.pid);
  if (pid) parts.push(`pid=${pid}`);
  if (cwd) parts.push(`cwd=${cwd}`);
  parts.push(`lines=${bodyLines}`);
  const f = { timestamp_utc: a.mtime, project_path: cwd, tag: 'time_file' as const };
  yield makeRow('system', parts.join(' '), { ...f, source_line: 1 });
  const last = asString(meta.last_command);
  if (last) yield makeRow('system', `terminal last command: ${last.replace(/\n$/, '')}`, { ...f, source_line: 1 });
}
