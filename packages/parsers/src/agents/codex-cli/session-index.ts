import { asString } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { SESSION_INDEX_RE } from './paths.js';

/** The index is appended when a thread is renamed, shortly after the rollout's thread_name_updated. */
export const SESSION_INDEX_TOLERANCE_SECONDS = 3600;

async function* parseSessionIndex(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    const id = (asString(l.value.id) ?? '').toLowerCase();
    const name = asString(l.value.thread_name);
    if (!id || !name) {
      ctx.warn(`line ${l.line}: expected {id, thread_name, updated_at}, found ${!id ? 'no id' : 'no thread_name'}`, l.line);
      continue;
    }
    // Appended on every rename: the last line of an id is its current name (a later report wins).
    ctx.fact({ session_id: id, key: 'name', value: name, priority: 2 });
    yield makeRow('system', `session name: ${name}`, { timestamp_utc: toUtc(l.value.updated_at), session_id: id, source_line: l.line, tag: 'session_name' });
  }
}

/** `session_index.jsonl`: thread names, kept when the rollout is gone (secondary). */
export const sessionIndexParser: Parser = {
  agent: 'codex-cli',
  name: 'session-index',
  patterns: ['<codex>/session_index.jsonl'],
  wants: (rel) => SESSION_INDEX_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => SESSION_INDEX_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: (a, ctx) => parseSessionIndex(a, ctx),
};
