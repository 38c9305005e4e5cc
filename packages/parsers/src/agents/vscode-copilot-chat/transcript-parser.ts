import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { projectOf, vscodeParser } from './common.js';
import { stem, USER_PATTERNS } from './paths.js';
import { argsText, stripSuffix } from './tools.js';

// Types the transcript writes that carry nothing a row needs (the call is the assistant.message's).
const SILENT = new Set(['assistant.turn_start', 'assistant.turn_end', 'tool.execution_start']);

/**
 * GitHub.copilot-chat/transcripts/<session id>.jsonl: the extension's event transcript in the
 * Copilot CLI envelope {type, data, id, timestamp, parentId} (microsoft/vscode-copilot-chat
 * src/extension/chat/vscode-node/sessionTranscriptService.ts @d1a6fa48): session.start,
 * user.message, assistant.turn_start / turn_end, assistant.message (content, toolRequests,
 * reasoningText), tool.execution_start / complete. Written only with hooks or before a
 * summarization, the 20 newest kept; a maintainer says it "isn't the source of truth", so it is
 * secondary (tolerance one hour). A replayed history writes call ids with their `__vscode-<n>`
 * suffix; it is removed, as the live writer does.
 */
export const vscodeTranscriptParser = vscodeParser({
  name: 'transcript',
  user: USER_PATTERNS.transcript,
  secondary: () => true,
  toleranceSeconds: () => 3600,
  parse: parseTranscript,
});

async function* parseTranscript(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = (await projectOf(a, ctx)).path;
  let sid = stem(a.rel);
  const names = new Map<string, string>();
  try {
    for await (const l of readJsonLines(a.stream())) {
      if (l.blank) continue;
      const f = { session_id: sid, project_path: project, source_line: l.line };
      if (l.value === undefined) {
        yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, f);
        continue;
      }
      const e = l.value;
      const type = asString(e.type) ?? '';
      const data = isObject(e.data) ? e.data : {};
      const at = toUtc(e.timestamp);
      const row = (turn: Row['turn_type'], text: string, extra: Partial<Row> = {}) => makeRow(turn, text, { ...f, timestamp_utc: at, ...extra });
      if (type === 'session.start') {
        sid = asString(data.sessionId) || sid;
        const cwd = isObject(data.context) ? (asString(data.context.cwd) ?? '') : '';
        if (cwd) ctx.fact({ session_id: sid, key: 'cwd', value: cwd, priority: 3 });
        const text = `session start: ${asString(data.producer) ?? '?'} ${asString(data.copilotVersion) ?? '?'} vscode ${asString(data.vscodeVersion) ?? '?'}${cwd ? ` cwd=${cwd}` : ''}`;
        yield row('system', text, { session_id: sid, tag: 'session_start' });
      } else if (type === 'user.message') {
        const text = asString(data.content) ?? '';
        if (text.trim() !== '') yield row('user', text, { session_id: sid });
      } else if (type === 'assistant.message') {
        const reasoning = asString(data.reasoningText) ?? '';
        if (ctx.options.includeThinking && reasoning.trim() !== '') yield row('thinking', reasoning, { session_id: sid });
        const content = (asString(data.content) ?? '').trim();
        if (content !== '') yield row('assistant', content, { session_id: sid });
        for (const t of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
          if (!isObject(t)) continue;
          const id = stripSuffix(asString(t.toolCallId) ?? '');
          const name = asString(t.name) ?? '';
          names.set(id, name);
          yield row('tool_use', callText(name, t.arguments), { session_id: sid, tool_name: name, tool_use_id: id });
        }
      } else if (type === 'tool.execution_complete') {
        const id = stripSuffix(asString(data.toolCallId) ?? '');
        const result = isObject(data.result) ? data.result.content : undefined;
        if (result === undefined) continue;
        const text = (typeof result === 'string' ? result : compactJson(result)) + (data.success === false ? ' [error]' : '');
        yield row('tool_result', text, { session_id: sid, tool_name: names.get(id) ?? '', tool_use_id: id });
      } else if (!SILENT.has(type)) ctx.unknown(`transcript ${type || '(no type)'}`, l.line);
    }
  } catch (e) {
    yield unreadableRow(`could not read the transcript: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { session_id: sid, project_path: project });
  }
}

/** The tool_use text rule (spec): the command for run_in_terminal, else the compact JSON of the parsed arguments. */
export function callText(name: string, args: unknown): string {
  const parsed = typeof args === 'string' ? safeParse(args) : args;
  if (name === 'run_in_terminal' && isObject(parsed) && typeof parsed.command === 'string') return parsed.command;
  if (typeof args === 'string') return argsText(args);
  return args === undefined ? '' : compactJson(args);
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
