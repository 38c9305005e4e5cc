import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';

/** What a user message holds once Cursor's wrappers are taken off. */
export interface UserText {
  /** What the user typed (inside `<user_query>`), or the whole text when it has no wrapper. */
  prompt: string;
  /** The `<timestamp>` element Cursor puts before the query in newer transcripts, as written. */
  timestamp: string;
  /**
   * Text Cursor attached around the query (`<user_info>`, `<git_status>`, `<image_files>`...):
   * when the message holds no query at all it is context, not a prompt.
   */
  context: string;
}

const QUERY = /<user_query>\n?([\s\S]*?)\n?<\/user_query>/g;
const TIMESTAMP = /^\s*<timestamp>([\s\S]*?)<\/timestamp>\s*/;

/**
 * Take a user message apart: Cursor writes `<user_query>\n<text>\n</user_query>`, so the text
 * between is the prompt exactly as the database's bubble holds it (several queries are joined by a
 * blank line). A message that is only wrapper elements (`<user_info>...`) is context.
 */
export function splitUserText(raw: string): UserText {
  let rest = raw;
  let timestamp = '';
  const ts = TIMESTAMP.exec(rest);
  if (ts) {
    timestamp = ts[1].trim();
    rest = rest.slice(ts[0].length);
  }
  const queries = [...rest.matchAll(QUERY)].map((m) => m[1]);
  if (queries.length > 0) {
    const context = rest.replace(QUERY, '').replace(/^\[Image\]\s*$/gm, '').trim();
    return { prompt: queries.join('\n\n'), timestamp, context };
  }
  if (/^\s*<[a-z_]+>/.test(rest)) return { prompt: '', timestamp, context: rest.trim() };
  return { prompt: rest, timestamp, context: '' };
}

/** The text nodes of a Lexical editor state (a bubble's `richText`), joined; '' when it is not one. */
export function lexicalText(richText: unknown): string {
  const root = asObject(richText);
  if (!root) return '';
  const out: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (!isObject(node) || depth > 64) return;
    const t = asString(node.text);
    if (node.type === 'text' && t !== undefined) out.push(t);
    const kids = asArray(node.children) ?? [];
    for (const k of kids) walk(k, depth + 1);
    if (node.type === 'paragraph' && out.length > 0 && !out[out.length - 1].endsWith('\n')) out.push('\n');
  };
  walk(root.root ?? root, 0);
  return out.join('').replace(/\n+$/, '');
}

// The terminal tools across versions: the IDE's run_terminal_cmd (and its _v2 names), the
// agent runtime's Shell (transcripts, hooks).
const TERMINAL = /^(?:run_terminal_(?:cmd|command)(?:_v\d+)?|shell|run_shell_command|terminal)$/i;

/** True for a tool that runs a shell command (its row text is the command). */
export function isTerminalTool(name: string): boolean {
  return TERMINAL.test(name);
}

/** A JSON string decoded, or the value as it is; `undefined` for an empty string. */
export function decodeJsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v === '') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A value as row text: a string as it is, anything else as compact JSON. */
export function textOf(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined ? '' : compactJson(v);
}

/** The text of a tool call: the command for terminal tools, else the compact JSON of the arguments. */
export function toolCallText(name: string, args: unknown): string {
  const o = asObject(args);
  if (isTerminalTool(name) && o) {
    const cmd = asString(o.command) ?? asString(o.cmd);
    if (cmd !== undefined) return cmd;
  }
  return textOf(args);
}

/** The text of a tool result: a terminal tool's output, else the compact JSON (or the raw string). */
export function toolResultText(name: string, result: unknown): string {
  const o = asObject(result);
  if (isTerminalTool(name) && o) {
    const out = asString(o.output) ?? asString(o.stdout);
    if (out !== undefined) return out;
  }
  return textOf(result);
}

/**
 * A path from a URI as Cursor stores it: `file:///srv/proj` → `/srv/proj`, `file:///c%3A/x` →
 * `c:\x`; a URI of another scheme (`vscode-remote://ssh-remote%2Bhost/...`) names a folder on
 * another machine and is kept whole, never mapped onto this one.
 */
export function pathOfUri(uri: string): string {
  const m = /^file:\/\/([^/]*)(\/.*)?$/i.exec(uri);
  if (!m) return uri;
  let p: string;
  try {
    p = decodeURIComponent(m[2] ?? '/');
  } catch {
    p = m[2] ?? '/';
  }
  if (m[1] !== '' && m[1].toLowerCase() !== 'localhost') return uri;
  const drive = /^\/([A-Za-z]):(\/.*)?$/.exec(p);
  if (drive) return `${drive[1]}:${(drive[2] ?? '\\').replace(/\//g, '\\')}`;
  return p;
}

/** A path from a VS Code URI object (`{fsPath, path, external, scheme}`) or a URI string. */
export function pathOfUriValue(v: unknown): string {
  if (typeof v === 'string') return pathOfUri(v);
  const o = asObject(v);
  if (!o) return '';
  const scheme = asString(o.scheme) ?? 'file';
  if (scheme === 'file') return asString(o.fsPath) ?? asString(o.path) ?? (asString(o.external) ? pathOfUri(asString(o.external)!) : '');
  const ext = asString(o.external);
  if (ext) return ext;
  const authority = asString(o.authority) ?? '';
  return `${scheme}://${authority}${asString(o.path) ?? ''}`;
}
