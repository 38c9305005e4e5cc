/**
 * The agent's work as JetBrains' AI UI streams it (`…aui.events.api.<Kind>BlockUpdatedEvent`), the
 * same block family in Junie's events.jsonl and AI Assistant's aia-task-history `.events`: a block
 * is sent again each time it changes (and once more when its task completes), so its rows come
 * from its last state, keyed by step id and kind (a view-files block shares the step id of the
 * tool block before it). Field names from real Junie sessions and peer parsers
 * (shared/agents/jetbrains-ai.md; vshulcz/deja-vu aui.go, kenn-io/agentsview junie.go).
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A kind without its package: `com.intellij.ml.llm.aui.events.api.TerminalBlockUpdatedEvent` → `TerminalBlockUpdatedEvent`. */
export const shortKind = (kind: unknown): string => str(kind).split('.').pop() ?? '';

/** The fold key of a block event, or '' when it is not a block. */
export function blockKey(e: JsonObject): string {
  const kind = shortKind(e.kind);
  return kind.endsWith('BlockUpdatedEvent') ? `${str(e.stepId)}\0${kind}` : '';
}

function pathOf(f: JsonObject, side: 'before' | 'after' | ''): string {
  if (side === '') return str(f.relativePath) || str(f.path);
  return str(f[`${side}RelativePath`]) || str(f[`${side}Path`]);
}

function changesText(changes: unknown): { paths: string; detail: string } {
  const list = (asArray(changes) ?? []).map(obj);
  const paths = list.map((c) => pathOf(c, 'after') || pathOf(c, 'before')).filter(Boolean);
  const detail = list.map((c) => {
    const before = pathOf(c, 'before');
    const after = pathOf(c, 'after');
    const action = !before ? 'created' : !after ? 'deleted' : before !== after ? `moved from ${before}` : 'edited';
    const text = str(obj(c.afterContent).text);
    return `${action} ${after || before}${text ? `\n${text}` : ''}`;
  });
  return { paths: paths.join(', '), detail: detail.join('\n') };
}

/** What a final status other than completed adds: a rejection is a permission decision. */
function statusRows(status: string, tool: string, f: Partial<Row>): Row[] {
  if (status === 'REJECTED') return [makeRow('system', `permission decision: rejected ${tool}`, { ...f, tag: 'permission_decision' })];
  if (status === 'CANCELED' || status === 'CANCELLED') return [makeRow('system', `tool cancelled: ${tool}`, f)];
  if (status === 'IN_PROGRESS') return [makeRow('system', `tool still running when the log ends: ${tool}`, f)];
  return [];
}

/** A tool block's call and result rows (its result marked `[failed]` when the block failed). */
function toolRows(tool: string, input: string, result: string | undefined, e: JsonObject, f: Partial<Row>): Row[] {
  const ids = { ...f, tool_name: tool, tool_use_id: str(e.stepId) };
  const status = str(e.status);
  const rows = [makeRow('tool_use', input, ids)];
  const code = asNumber(e.exitCode);
  if (result !== undefined && (result !== '' || status === 'FAILED')) {
    const exit = code !== undefined && code !== 0 ? `\n[exit ${code}]` : '';
    rows.push(makeRow('tool_result', `${status === 'FAILED' ? '[failed] ' : ''}${result}${exit}`, { ...ids, model: '' }));
  }
  return [...rows, ...statusRows(status, tool, { ...ids, model: '' })];
}

/** The rows of one block in its last state; `markdown` is the text its pieces built (`.events` streams markdown as chunks). */
export function blockRows(e: JsonObject, f: Partial<Row>, ctx: ParseContext, markdown?: string): Row[] {
  const kind = shortKind(e.kind);
  switch (kind) {
    case 'MarkdownBlockUpdatedEvent': {
      const text = str(e.text) || markdown || str(e.textChunk);
      return text ? [makeRow('assistant', text, f)] : [];
    }
    case 'AgentThoughtBlockUpdatedEvent':
      return ctx.options.includeThinking && str(e.text) ? [makeRow('thinking', str(e.text), f)] : [];
    case 'TerminalBlockUpdatedEvent':
      return toolRows('terminal', str(e.command), str(e.output) || str(e.presentableOutput), e, f);
    case 'FileChangesBlockUpdatedEvent': {
      const c = changesText(e.changes);
      return toolRows('edit', `file changes: ${c.paths}`, c.detail, e, f);
    }
    case 'ViewFilesBlockUpdatedEvent':
      return toolRows('view', (asArray(e.files) ?? []).map((x) => pathOf(obj(x), '')).join(', '), undefined, e, f);
    case 'ToolBlockUpdatedEvent':
      return toolRows(str(e.toolType) || 'tool', str(e.title) || str(e.text), e.output === undefined ? undefined : typeof e.output === 'string' ? e.output : compactJson(e.output), e, f);
    case 'McpBlockUpdatedEvent':
      // At completion `details` is the agent's summary: the tool's own output is not kept.
      return toolRows(str(e.toolName) || 'mcp', typeof e.input === 'string' ? e.input : compactJson(e.input ?? {}), str(e.details), e, f);
    case 'TestRunBlockUpdatedEvent':
      return toolRows('test_run', str(e.name), undefined, e, f);
    case 'ResultBlockUpdatedEvent': {
      const text = str(e.result).replace(/^<!-- ANSWER -->\s*/, '');
      const rows = text ? [makeRow('assistant', text, f)] : [];
      if (e.cancelled === true) rows.push(makeRow('system', 'task cancelled', f));
      return rows;
    }
    case 'ContextCompactionBlockUpdatedEvent':
      return [makeRow('system', `context compacted (${str(e.trigger) || 'trigger not given'}, ${asNumber(e.preTokens) ?? '?'} tokens before)`, { ...f, tag: 'compaction' })];
    case 'CustomAgentBlockUpdatedEvent':
      return [makeRow('system', `sub-agent ${str(e.name)} ${str(e.status).toLowerCase()}${str(e.model) ? ` (${str(e.model)})` : ''}`.trimEnd(), f)];
    default:
      ctx.unknown(`block ${kind}`, f.source_line ?? undefined);
      return [makeRow('system', `block: ${compactJson(e)}`, f)];
  }
}
