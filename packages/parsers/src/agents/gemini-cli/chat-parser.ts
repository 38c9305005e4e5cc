import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { indexJsonl, jsonlRows } from './chat-jsonl.js';
import { indexLegacy, legacyRows } from './chat-legacy.js';
import { type ChatHooks, newChatState, reportProject } from './chat-setup.js';
import type { FamilyPaths } from './paths.js';
import { decodeText, utf8Stream } from '../../sdk/text-encoding.js';

const SNIFF_BYTES = 1024 * 1024;

/**
 * True when the file is JSON Lines: its first line alone is a JSON object that is not a whole
 * legacy record (a pretty-printed legacy file's first line is `{`; a compact one holds `messages`).
 * The CLI itself reads any chat as JSONL first and falls back to the single document.
 */
export async function isJsonLines(a: Artifact): Promise<boolean> {
  if (/\.jsonl(?:\.[^/]*)?$/i.test(a.rel)) return true;
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of utf8Stream(a.stream())) {
    const nl = c.indexOf(0x0a);
    parts.push(nl >= 0 ? c.subarray(0, nl) : c);
    n += c.length;
    if (nl >= 0 || n > SNIFF_BYTES) break;
  }
  try {
    const first: unknown = JSON.parse(decodeText(Buffer.concat(parts)));
    return typeof first === 'object' && first !== null && !Array.isArray(first) && !Array.isArray((first as { messages?: unknown }).messages);
  } catch {
    return false;
  }
}

/** Parse one chat of the family (JSONL or legacy JSON, main or subagent) into rows, streaming. */
export async function* parseChat(a: Artifact, ctx: ParseContext, paths: FamilyPaths, hooks: ChatHooks = {}): AsyncGenerator<Row> {
  const tmpLayout = /^[^/]+\/tmp\//i.test(a.rel);
  let first = '';
  const track = (r: Row) => {
    if (!first && r.timestamp_utc) first = r.timestamp_utc;
    return r;
  };
  if (await isJsonLines(a)) {
    const { index, clues } = await indexJsonl(a);
    const st = await newChatState(a, ctx, paths, clues);
    for await (const r of jsonlRows(a, st, index, hooks)) yield track(r);
    if (tmpLayout) reportProject(st, first);
  } else {
    const { meta, clues } = await indexLegacy(a);
    const st = await newChatState(a, ctx, paths, clues);
    for await (const r of legacyRows(a, st, meta, hooks)) yield track(r);
    if (tmpLayout) reportProject(st, first);
  }
}

/**
 * Which copy of a session keeps its rows: the live chat (0) before a legacy `.json` that a resume
 * continued in a `.jsonl` twin (1), before copies the hash-to-slug migration left under a 64-hex
 * directory (+2), before files the CLI set aside as unreadable or half-written (+4).
 */
export function chatCopyRank(paths: FamilyPaths, rel: string): number {
  const setAside = /\.(?:unreadable|tmp)-\d+$/i.test(rel) ? 4 : 0;
  const legacy = /\.json(?:\.[^/]*)?$/i.test(rel) ? 1 : 0;
  return setAside + paths.copyRank(rel) + legacy;
}

/** The chat parser of one family member: main and subagent chats, both formats (primary). */
export function chatParser(paths: FamilyPaths): Parser {
  const d = paths.profile.dir;
  const tmp = paths.profile.layouts.includes('tmp');
  const proj = paths.profile.layouts.includes('projects');
  return {
    agent: paths.profile.agent,
    name: 'chats',
    patterns: [
      ...(tmp ? [`${d}/tmp/<slug or sha256>/chats/session-*.json(l)`, `${d}/tmp/<id>/chats/<parent session or skill-extraction-*>/<id>.json(l)`] : []),
      ...(proj ? [`${d}/projects/<sanitized cwd>/chats/<session>.jsonl`, `${d}/projects/<p>/subagents/<session>/agent-<id>.jsonl`] : []),
    ],
    wants: (rel) => paths.chat.test(rel) || paths.subChat.test(rel),
    // Copies made by the hash-to-slug migration stay primary: the analyzer drops exact copies
    // of a session's rows across files (docs/formats.md, "Copies of one session").
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    copyRank: (rel) => chatCopyRank(paths, rel),
    parse: (a, ctx) => parseChat(a, ctx, paths),
  };
}
