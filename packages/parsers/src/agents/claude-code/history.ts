import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { HISTORY_RE } from './paths.js';

/** How far a history entry may be from the transcript line it repeats (a queued prompt reaches the transcript after the turn). */
export const HISTORY_TOLERANCE_SECONDS = 3600;

const PLACEHOLDER = /\[Pasted text #(\d+)[^\]]*\]/g;
const MAX_PASTE_BYTES = 16 * 1024 * 1024;

/**
 * The prompt as the transcript holds it: each `[Pasted text #N ...]` placeholder replaced by the
 * paste (inline, or from the sibling `paste-cache/<hash>.txt` when collected), else kept.
 */
export async function expandPastes(display: string, pasted: JsonObject | undefined, a: Artifact): Promise<string> {
  if (!pasted || !PLACEHOLDER.test(display)) return display;
  PLACEHOLDER.lastIndex = 0;
  const texts = new Map<string, string>();
  for (const m of display.matchAll(PLACEHOLDER)) {
    const p = pasted[m[1]];
    if (!isObject(p) || texts.has(m[1])) continue;
    const inline = asString(p.content);
    if (inline !== undefined) texts.set(m[1], inline);
    else {
      const hash = asString(p.contentHash);
      const f = hash && /^[0-9a-f]+$/i.test(hash) ? a.sibling(`paste-cache/${hash}.txt`) : undefined;
      const r = f ? await readSmall(f.stream(), MAX_PASTE_BYTES) : undefined;
      if (r?.ok) texts.set(m[1], decodeText(r.buffer));
    }
  }
  return display.replace(PLACEHOLDER, (whole, n: string) => texts.get(n) ?? whole);
}

async function* parseHistory(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const projects = new Map<string, string>();
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    const v = l.value;
    const display = asString(v.display);
    if (display === undefined) {
      ctx.warn(`line ${l.line}: history entry without display`, l.line);
      continue;
    }
    const session = asString(v.sessionId) ?? '';
    const project = asString(v.project) ?? '';
    if (session && project && projects.get(session) !== project) {
      projects.set(session, project);
      ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 3 });
    }
    yield makeRow('user', await expandPastes(display, asObject(v.pastedContents), a), {
      timestamp_utc: toUtc(v.timestamp),
      session_id: session,
      project_path: project,
      source_line: l.line,
      tag: 'history',
    });
  }
}

/** `history.jsonl`: every prompt typed, any project (secondary: the transcripts hold the same prompts). */
export const historyParser: Parser = {
  agent: 'claude-code',
  name: 'history',
  patterns: ['<cfg>/history.jsonl'],
  wants: (rel) => HISTORY_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => HISTORY_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: parseHistory,
};
