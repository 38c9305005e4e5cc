/**
 * Zed's content values as text (zed crates/agent/src/thread.rs, crates/acp_thread/src/mention.rs,
 * crates/language_model_core): a mention's target, a tool call's input, a tool result's content.
 * Every shape a release has written is read; values are serde's externally tagged enums.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';

const str = (v: unknown): string => asString(v) ?? '';

/** The one key and value of an externally tagged enum value (`{"File": {...}}`), or of a unit variant written as a string. */
export function variant(v: unknown): { key: string; value: unknown } | undefined {
  if (typeof v === 'string') return { key: v, value: undefined };
  if (!isObject(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 ? { key: keys[0], value: v[keys[0]] } : undefined;
}

function lines(r: unknown): string {
  if (!isObject(r)) return '';
  const start = asNumber(r.start);
  const end = asNumber(r.end);
  // line_range is 0-based and inclusive; shown 1-based as an editor does.
  return start === undefined ? '' : `#L${start + 1}${end !== undefined && end !== start ? `-${end + 1}` : ''}`;
}

/** What a mention (`MentionUri`) points at: a path (with its lines), a thread, a URL, or the variant and its fields. */
export function mentionTarget(uri: unknown): string {
  const vr = variant(uri);
  if (!vr) return typeof uri === 'string' ? uri : compactJson(uri);
  const o: JsonObject = isObject(vr.value) ? vr.value : {};
  switch (vr.key) {
    case 'File':
    case 'Directory':
      return str(o.abs_path);
    case 'Symbol':
      return `${str(o.abs_path)}${lines(o.line_range)} (${str(o.name)})`;
    case 'Selection':
      return `${str(o.abs_path) || 'selection'}${lines(o.line_range)}`;
    case 'Thread':
    case 'TextThread':
      return `thread ${str(o.name)} (${str(o.id) || str(o.abs_path)})`;
    case 'Rule':
      return `rule ${str(o.name)}`;
    case 'Fetch':
      return str(o.url);
    default:
      return vr.value === undefined ? vr.key : `${vr.key} ${compactJson(vr.value)}`;
  }
}

/**
 * A tool call's input: newer builds wrap it (`{"type": "json"|"text", "value": ...}`), older ones
 * stored the tool's own JSON; `raw_input` (the model's text) when neither is there.
 */
export function toolInput(use: JsonObject): unknown {
  const i = use.input;
  if (isObject(i) && Object.keys(i).length === 2 && (i.type === 'json' || i.type === 'text') && 'value' in i) return i.value;
  return i ?? use.raw_input;
}

/** A tool call as text: the terminal's command (and its folder), a file tool's path and description, else the input as JSON. */
export function toolUseText(name: string, input: unknown): string {
  const i: JsonObject = isObject(input) ? input : {};
  if (name === 'terminal' && typeof i.command === 'string') return i.cd ? `${i.command} (cd ${str(i.cd)})` : i.command;
  if ((name === 'edit_file' || name === 'write_file' || name === 'read_file') && typeof i.path === 'string') {
    const what = str(i.display_description);
    return what ? `${i.path}: ${what}` : i.path;
  }
  if (typeof input === 'string') return input;
  return input === undefined ? '' : compactJson(input);
}

function part(p: unknown): string {
  if (typeof p === 'string') return p;
  const vr = variant(p);
  if (vr?.key === 'Text' && typeof vr.value === 'string') return vr.value;
  if (vr?.key === 'Image') return '[image]';
  if (isObject(p) && typeof p.text === 'string') return p.text;
  return p === undefined || p === null ? '' : compactJson(p);
}

/**
 * A tool result's text: its content (a list of `{"Text"}`/`{"Image"}` parts in newer builds, one
 * such part before, a plain string at first), else its `output`; `[error]` first when it failed.
 */
export function toolResultText(r: JsonObject): string {
  const c = r.content;
  let text = Array.isArray(c) ? c.map(part).join('\n') : part(c);
  if (text === '' && r.output !== undefined && r.output !== null) text = typeof r.output === 'string' ? r.output : compactJson(r.output);
  return r.is_error === true ? `[error] ${text}` : text;
}
