/**
 * Two small logs: Cline's hook runs (`~/.cline/data/logs/hooks.jsonl`, one JSON line per hook
 * event, seen in a live 3.0.65 run) and the CLI prompt histories, which keep the prompts without
 * their own times: Cline's `cache/user_input_history.jsonl` (`{prompt, ts}` lines, every `ts`
 * rewritten to the time of the last write: apps/cli/src/utils/input-history.ts) and the Roo CLI's
 * `~/.roo/cli-history.json` (`{version, entries: string[]}`: apps/cli/src/lib/storage/history.ts).
 */
import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonDoc } from './json-doc.js';

/** `logs/hooks.jsonl`: one system row per hook event, on the session it ran for. */
export async function* parseHooksLog(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value || l.error) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    const v = l.value;
    const session = asString(asObject(v.sessionContext)?.rootSessionId) ?? asString(v.sessionId) ?? asString(v.taskId) ?? '';
    const ts = toUtc(v.ts) || toUtc(v.timestamp);
    const ws = asObject(v.workspaceInfo);
    const root = asString(ws?.rootPath);
    if (session && root && ts) ctx.fact({ session_id: session, key: 'cwd', value: root, priority: 3, at: ts });
    const branch = asString(ws?.latestGitBranchName);
    if (session && branch && ts) ctx.fact({ session_id: session, key: 'branch', value: branch, priority: 3, at: ts });
    const name = asString(v.hookName) ?? '';
    if (!name) ctx.unknown('hook event without hookName', l.line);
    const parts = [`hook ${name || '(unnamed)'}`];
    for (const k of ['toolName', 'reason', 'source', 'iteration']) {
      const x = asString(v[k]);
      if (x) parts.push(`${k}=${x}`);
    }
    const status = asString(asObject(v.turn)?.status);
    if (status) parts.push(`status=${status}`);
    yield makeRow('system', parts.join(' '), { timestamp_utc: ts, session_id: session, source_line: l.line, tag: 'hook' });
  }
}

/** A CLI prompt history: user rows without times (secondary: each joins the session's own copy). */
export async function* parseCliHistory(a: Artifact): AsyncGenerator<Row> {
  if (/\.jsonl$/i.test(a.rel)) {
    for await (const l of readJsonLines(a.stream())) {
      if (l.blank) continue;
      const prompt = asString(l.value?.prompt);
      if (prompt) yield makeRow('user', prompt, { source_line: l.line, tag: 'history' });
      else yield badLineRow(l.error ?? 'expected {prompt}', l.text, l.line);
    }
    return;
  }
  const doc = await readJsonDoc(a);
  if (!doc.ok) return yield doc.row;
  const entries = asArray(isObject(doc.value) ? doc.value.entries : doc.value);
  if (!entries) return yield makeRow('system', 'parser: unparseable prompt history (expected {entries: [...]})', { timestamp_utc: a.mtime, tag: 'bad_line' });
  for (const [i, e] of entries.entries()) {
    if (typeof e !== 'string') yield makeRow('system', `parser: unparseable prompt history entry ${i + 1} (expected a string, found ${e === null ? 'null' : typeof e})`, { source_line: i + 1, tag: 'bad_line' });
    else if (e.trim()) yield makeRow('user', e, { source_line: i + 1, tag: 'history' });
  }
}
