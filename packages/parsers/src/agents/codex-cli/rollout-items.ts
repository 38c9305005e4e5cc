import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { callText, commandText, contentTexts, contextTag, outputText } from './content.js';
import { envContextPolicy } from './rollout-context.js';
import type { Draft, RolloutState } from './rollout-state.js';
import { pushAll } from '../../sdk/push-all.js';

/** What a record gives: rows, or why it gives none (a counted skip). */
export type Outcome = Draft[] | string;

function userMessage(st: RolloutState, content: unknown, at: string): Outcome {
  const out: Draft[] = [];
  const typed: { text: string; image: boolean }[] = [];
  for (const t of contentTexts(content)) {
    const tag = t.image ? '' : contextTag(t.text);
    if (!tag) {
      typed.push(t);
      continue;
    }
    out.push({ turn: 'system', text: `context ${tag}: ${t.text}`, tag: 'context' });
    // The first Rust layout had no turn_context: its environment context carried cwd and policy.
    if (tag === 'environment_context') pushAll(out, envContextPolicy(st, t.text, at));
  }
  if (typed.length > 0) {
    const text = typed.map((t) => t.text).join('\n');
    const plain = typed
      .filter((t) => !t.image)
      .map((t) => t.text)
      .join('\n');
    st.item('user', [text, plain]);
    out.push({ turn: 'user', text });
  }
  return out.length > 0 ? out : 'empty user message';
}

function reasoning(st: RolloutState, p: JsonObject): Outcome {
  const summary = contentTexts(p.summary).map((t) => t.text);
  const content = contentTexts(p.content).map((t) => t.text);
  const parts = summary.filter((t) => t !== '').length > 0 ? summary : content;
  const text = parts.filter((t) => t !== '').join('\n\n');
  st.item('thinking', [text, ...summary, ...content]);
  if (!text) return 'reasoning with no readable text (encrypted only)';
  if (!st.ctx.options.includeThinking) return 'reasoning (thinking rows only with --include-thinking)';
  return [{ turn: 'thinking', text }];
}

function toolUse(st: RolloutState, name: string, callId: string, text: string): Draft[] {
  st.remember(callId, name);
  return [{ turn: 'tool_use', text, tool_name: name, tool_use_id: callId }];
}

function toolResult(st: RolloutState, callId: string, output: unknown, fallbackName = ''): Draft[] {
  return [{ turn: 'tool_result', text: outputText(output), tool_name: st.toolOf(callId) || fallbackName, tool_use_id: callId }];
}

function webSearchText(action: JsonObject | undefined): string {
  if (!action) return '';
  return asString(action.query) ?? asString(action.url) ?? compactJson(action);
}

/** Response items the timeline has no row for, on purpose. */
const SKIPPED_ITEMS: Record<string, string> = {
  additional_tools: 'tool list offered to the model',
};

/** One `response_item` payload (or a bare record of the first Rust layout, or a TypeScript item). */
export function responseItem(st: RolloutState, p: JsonObject, at: string): Outcome {
  const type = asString(p.type) ?? (p.role !== undefined ? 'message' : '');
  const callId = asString(p.call_id) ?? '';
  switch (type) {
    case 'message': {
      const role = asString(p.role) ?? '';
      if (role === 'user') return userMessage(st, p.content, at);
      const text = contentTexts(p.content)
        .map((t) => t.text)
        .join('\n');
      if (role === 'assistant') {
        st.item('assistant', [text]);
        return text ? [{ turn: 'assistant', text }] : 'empty assistant message';
      }
      if (role === 'developer' || role === 'system') return text ? [{ turn: 'system', text: `developer message: ${text}`, tag: 'developer_message' }] : 'empty developer message';
      st.ctx.unknown(`response_item:message:${role || '(no role)'}`);
      return `message of unknown role ${role}`;
    }
    case 'reasoning':
      return reasoning(st, p);
    case 'function_call': {
      const name = asString(p.name) ?? '';
      return toolUse(st, name, callId, callText(name, p.arguments));
    }
    case 'custom_tool_call':
      return toolUse(st, asString(p.name) ?? '', callId, asString(p.input) ?? compactJson(p.input ?? ''));
    case 'local_shell_call':
      return toolUse(st, 'local_shell', callId || (asString(p.id) ?? ''), commandText(asObject(p.action)?.command));
    case 'web_search_call':
      return toolUse(st, 'web_search', '', webSearchText(asObject(p.action)));
    case 'tool_search_call': {
      const args = p.arguments;
      const q = asString(asObject(args)?.query);
      return toolUse(st, 'tool_search', callId, q ?? (typeof args === 'string' ? args : compactJson(args ?? '')));
    }
    case 'image_generation_call':
      return toolUse(st, 'image_generation', asString(p.id) ?? '', asString(p.revised_prompt) ?? '');
    case 'function_call_output':
    case 'custom_tool_call_output':
      return toolResult(st, callId, p.output);
    case 'tool_search_output': {
      // The tools found, by name (the schemas are the tool catalog, not evidence).
      const names = (asArray(p.tools) ?? []).flatMap((t) => toolNames(t));
      return [{ turn: 'tool_result', text: p.output !== undefined ? outputText(p.output) : `tools: ${names.join(', ')}`, tool_name: st.toolOf(callId) || 'tool_search', tool_use_id: callId }];
    }
    case 'ghost_snapshot':
      return [{ turn: 'system', text: `ghost snapshot: ${compactJson(p.ghost_commit ?? {})}`, tag: 'ghost_snapshot' }];
    case 'agent_message': {
      // Newer builds persist messages between agents as their own item (policy.rs @0136a731).
      const text = contentTexts(p.content).map((t) => t.text).join('\n') || asString(p.message) || compactJson(p);
      return [{ turn: 'system', text: `agent message: ${text}`, tag: 'agent_message' }];
    }
    case 'compaction':
    case 'context_compaction':
      return [{ turn: 'system', text: 'context compaction (encrypted remote summary)', tag: 'compaction' }];
    default:
      if (SKIPPED_ITEMS[type]) return SKIPPED_ITEMS[type];
      st.ctx.unknown(`response_item:${type || '(no type)'}`);
      return `unknown response item ${type}`;
  }
}

function toolNames(t: unknown): string[] {
  const o = asObject(t);
  if (!o) return [];
  const name = asString(o.name) ?? '';
  const inner = asArray(o.tools);
  if (inner) return inner.flatMap((x) => toolNames(x).map((n) => (name ? `${name}.${n}` : n)));
  return name ? [name] : [];
}
