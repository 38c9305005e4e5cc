/**
 * An AI Assistant agent task, `<IDE config>/<Product><version>/aia-task-history/<uid>.events`:
 * the line `AUI_EVENTS_V1`, then each record as one line of base64 JSON: a user prompt
 * (`…ChatSessionUserPromptEvent`) or a block (`…ChatSessionMessageBlockEvent` with `event`, see
 * blocks.ts). Markdown comes as `textChunk` pieces, joined in order. No record has a time: rows
 * carry the file's mtime (tag `time_file`). A `.agentsession` beside it names the agent the task
 * ran on (`acp.registry.junie:<session id>`), whose own store has the transcript.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { blockKey, blockRows, shortKind } from './blocks.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

function decode(text: string): JsonObject | string {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t)) return 'expected a line of base64';
  try {
    const v: unknown = JSON.parse(Buffer.from(t, 'base64').toString('utf8'));
    return isObject(v) ? v : 'expected base64 of a JSON object';
  } catch (e) {
    return `expected base64 of JSON (${(e as Error).message})`;
  }
}

async function* records(a: Artifact): AsyncGenerator<{ line: number; rec?: JsonObject; error?: string; text: string }> {
  for await (const l of readLines(a.stream())) {
    if (l.text.trim() === '' || (l.line === 1 && l.text.trim() === 'AUI_EVENTS_V1')) continue;
    if (l.error) {
      yield { line: l.line, error: l.error, text: l.text };
      continue;
    }
    const r = decode(l.text);
    yield typeof r === 'string' ? { line: l.line, error: r, text: l.text } : { line: l.line, rec: r, text: l.text };
  }
}

async function delegation(a: Artifact): Promise<string> {
  const name = (a.rel.split('/').pop() ?? '').replace(/\.events$/, '.agentsession');
  const s = a.sibling(name);
  if (!s) return '';
  const parts: Buffer[] = [];
  for await (const c of s.stream()) parts.push(c);
  return Buffer.concat(parts).toString('utf8').trim().slice(0, 4096);
}

/** The task's rows: its delegation, prompts and blocks (each from its last state, in order of first sight). */
export async function* parseAiaEvents(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const session = (a.rel.split('/').pop() ?? '').replace(/\.events$/, '');
  const f = (line: number | null): Partial<Row> => ({ session_id: session, source_line: line, timestamp_utc: a.mtime, ...(a.mtime ? { tag: 'time_file' } : {}) });
  const last = new Map<string, number>();
  const first = new Map<string, number>();
  for await (const r of records(a)) {
    const key = r.rec ? blockKey(obj(r.rec.event)) : '';
    if (!key) continue;
    last.set(key, r.line);
    if (!first.has(key)) first.set(key, r.line);
  }
  const agent = await delegation(a).catch(() => '');
  if (agent) {
    const [who, ...rest] = agent.split(':');
    yield makeRow('system', `delegated to ${who.replace(/^acp\.registry\./, '')}: session ${rest.join(':')}`, f(null));
  }
  const chunks = new Map<string, string>();
  for await (const r of records(a)) {
    if (!r.rec) {
      yield badLineRow(r.error ?? 'not a record', r.text, r.line, { session_id: session });
      continue;
    }
    const type = shortKind(r.rec.type);
    if (type === 'ChatSessionUserPromptEvent') {
      const files = (asArray(r.rec.attachments) ?? []).map((x) => str(obj(x).url) || str(obj(x).name)).filter(Boolean);
      yield makeRow('user', `${str(r.rec.prompt)}${files.length ? `\n[attached: ${files.join(', ')}]` : ''}`, f(r.line));
    } else if (type === 'ChatSessionMessageBlockEvent') {
      const e = obj(r.rec.event);
      const key = blockKey(e);
      if (!key) {
        ctx.unknown(`event ${shortKind(e.kind) || '(no kind)'}`, r.line);
        yield makeRow('system', `event: ${compactJson(e)}`, f(r.line));
        continue;
      }
      if (typeof e.textChunk === 'string') chunks.set(key, (chunks.get(key) ?? '') + e.textChunk);
      if (last.get(key) !== r.line) continue;
      yield* blockRows(e, f(first.get(key) ?? r.line), ctx, chunks.get(key));
    } else {
      ctx.unknown(`record ${type || '(no type)'}`, r.line);
      yield makeRow('system', `record: ${compactJson(r.rec)}`, f(r.line));
    }
  }
}
