import { asArray, asNumber, asObject, asString, isObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonFile } from './json-file.js';
import { IMPORTS_RE, PROCESSES_RE } from './paths.js';

/** The agent whose store an imported path points into, by its folder (Claude Code's `.claude/projects/`, ...). */
function importedFrom(path: string): string {
  if (/[/\\]\.claude[^/\\]*[/\\]projects[/\\]/i.test(path)) return 'claude-code';
  if (/[/\\]\.gemini[/\\]/i.test(path)) return 'gemini-cli';
  if (/[/\\]\.copilot[/\\]/i.test(path)) return 'copilot-cli';
  return '-';
}

/**
 * external_agent_session_imports.json (Codex Desktop): the sessions of other agents imported as
 * Codex threads, each {source_path, content_sha256, imported_thread_id, imported_at}; the row ties
 * the thread to the other agent's transcript.
 */
async function* parseImports(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonFile(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const records = asArray(asObject(r.value)?.records) ?? asArray(r.value);
  if (!records) {
    yield unreadableRow('expected {records: [...]} of imported sessions, found another JSON value', { timestamp_utc: a.mtime });
    return;
  }
  for (const [i, rec] of records.entries()) {
    if (!isObject(rec)) {
      ctx.warn(`record ${i + 1}: expected an object`, i + 1);
      continue;
    }
    const path = asString(rec.source_path) ?? '-';
    const sha = asString(rec.content_sha256);
    yield makeRow('system', `session imported: from ${importedFrom(path)} ${path}${sha ? ` sha256=${sha}` : ''}`, {
      timestamp_utc: toUtc(rec.imported_at) || a.mtime,
      session_id: (asString(rec.imported_thread_id) ?? '').toLowerCase(),
      source_line: i + 1,
      tag: 'session_import',
    });
  }
}

/** process_manager/chat_processes.json (Codex Desktop): commands started per conversation, with cwd and pids. */
async function* parseProcesses(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonFile(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const list = asArray(r.value);
  if (!list) {
    yield unreadableRow('expected a JSON array of processes, found another JSON value', { timestamp_utc: a.mtime });
    return;
  }
  for (const [i, p] of list.entries()) {
    if (!isObject(p)) {
      ctx.warn(`entry ${i + 1}: expected an object`, i + 1);
      continue;
    }
    const parts = [`pid=${asString(p.osPid) ?? asNumber(p.osPid) ?? '-'}`, `process=${asString(p.processId) ?? '-'}`, `cwd=${asString(p.cwd) ?? '-'}`, `command=${asString(p.command) ?? '-'}`];
    yield makeRow('system', `background process: ${parts.join(' ')}`, {
      timestamp_utc: toUtc(p.startedAtMs) || a.mtime,
      session_id: (asString(p.conversationId) ?? '').toLowerCase(),
      project_path: asString(p.cwd) ?? '',
      tool_use_id: asString(p.itemId) ?? '',
      source_line: i + 1,
      tag: 'background_process',
    });
  }
}

/** Codex Desktop's own small stores: imported sessions and background processes. */
export const desktopStoresParser: Parser = {
  agent: 'codex-cli',
  name: 'desktop-stores',
  patterns: ['<codex>/external_agent_session_imports.json', '<codex>/process_manager/chat_processes.json'],
  wants: (rel) => IMPORTS_RE.test(rel) || PROCESSES_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: (a, ctx) => (IMPORTS_RE.test(a.rel) ? parseImports(a, ctx) : parseProcesses(a, ctx)),
};
