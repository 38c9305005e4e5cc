import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { projectOf, vscodeParser } from './common.js';
import { USER_PATTERNS } from './paths.js';
import { callText } from './transcript-parser.js';

// Types the file logger writes that give no row (llm_request names every model call, utility
// models included; the rest are spans of the extension's own work).
const SILENT = new Set(['llm_request', 'subagent', 'discovery', 'generic', 'hook', 'child_session_ref', 'error', 'session_start', 'turn_start', 'turn_end']);

/**
 * GitHub.copilot-chat/debug-logs/<session id>/main.jsonl and <label>-<child id>.jsonl (and the
 * older debug-logs/<session id>.jsonl): the extension's OTel-derived debug log, written only with
 * file logging on (microsoft/vscode-copilot-chat src/extension/chat/vscode-node/
 * chatDebugFileLoggerService.ts @00b908cf: {ts, dur, sid, type, name, spanId, parentSpanId, status,
 * attrs}). Secondary (tolerance one hour). Attribute values are cut at a build's limit (500 in that
 * build, 5,000 in 0.42) with `[truncated]` appended; such rows are tagged `truncated`, so the
 * analyzer matches them to the full text they begin.
 */
export const vscodeDebugLogParser = vscodeParser({
  name: 'debug-log',
  user: USER_PATTERNS.debugLog,
  secondary: () => true,
  toleranceSeconds: () => 3600,
  parse: parseDebugLog,
});

const CUT = /(?:\.\.\.)?\[truncated[^\]]*\]$/;

async function* parseDebugLog(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = (await projectOf(a, ctx)).path;
  const dir = /\/debug-logs\/([^/]+)\/[^/]+$/.exec(a.rel)?.[1] ?? /\/debug-logs\/([^/]+)\.jsonl$/.exec(a.rel)?.[1] ?? '';
  try {
    for await (const l of readJsonLines(a.stream())) {
      if (l.blank) continue;
      const f = { session_id: dir, project_path: project, source_line: l.line };
      if (l.value === undefined) {
        yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, f);
        continue;
      }
      const e = l.value;
      const type = asString(e.type) ?? '';
      const attrs = isObject(e.attrs) ? e.attrs : {};
      const base = { ...f, session_id: asString(e.sid) || dir, timestamp_utc: toUtc(e.ts) };
      const row = (turn: Row['turn_type'], text: string, extra: Partial<Row> = {}) => makeRow(turn, text, { ...base, ...(CUT.test(text) ? { tag: 'truncated' } : {}), ...extra });
      if (type === 'user_message') {
        const text = asString(attrs.content) ?? '';
        if (text.trim() !== '') yield row('user', text);
      } else if (type === 'agent_response') {
        const text = responseText(asString(attrs.response) ?? '');
        if (text.trim() !== '') yield row('assistant', text.trim());
      } else if (type === 'tool_call') {
        const name = asString(e.name) ?? '';
        const id = asString(e.spanId) ?? '';
        if (attrs.args !== undefined) yield row('tool_use', callText(name, attrs.args), { tool_name: name, tool_use_id: id });
        const result = attrs.result ?? attrs.error;
        if (result !== undefined) {
          const text = (typeof result === 'string' ? result : compactJson(result)) + (e.status === 'error' ? ' [error]' : '');
          yield row('tool_result', text, { tool_name: name, tool_use_id: id });
        }
      } else if (!SILENT.has(type)) ctx.unknown(`debug log ${type || '(no type)'}`, l.line);
    }
  } catch (err) {
    yield unreadableRow(`could not read the debug log: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { session_id: dir, project_path: project });
  }
}

/**
 * The text parts of the output messages ([{role, parts: [{type: text, content}]}]), joined; a
 * value cut mid-JSON gives the text of its first text part up to the cut, then the marker.
 */
export function responseText(raw: string): string {
  try {
    const msgs = JSON.parse(raw);
    if (Array.isArray(msgs)) {
      const texts = msgs.flatMap((m) => (isObject(m) && Array.isArray(m.parts) ? m.parts : [])).filter((p) => isObject(p) && p.type === 'text' && typeof p.content === 'string');
      return texts.map((p) => (p as { content: string }).content).join('\n');
    }
  } catch {
    const cut = CUT.exec(raw);
    const at = raw.indexOf('"type":"text","content":"');
    if (cut && at >= 0) {
      const body = raw.slice(at + 25, cut.index);
      try {
        return `${JSON.parse(`"${body}"`)}${cut[0]}`;
      } catch {
        return `${body}${cut[0]}`;
      }
    }
  }
  return raw;
}
