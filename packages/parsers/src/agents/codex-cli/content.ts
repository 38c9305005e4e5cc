import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asObject, asString, isObject } from '../../sdk/decode.js';

/**
 * Text Codex injects as a user-role message, by how the item starts (after whitespace): the
 * context row's tag. Anything else in a user message is what the user typed.
 */
const CONTEXT_PREFIXES: [string, string][] = [
  ['# AGENTS.md instructions', 'agents_md'],
  ['<INSTRUCTIONS>', 'agents_md'],
  ['<user_instructions>', 'user_instructions'],
  ['<environment_context>', 'environment_context'],
  ['<turn_aborted>', 'turn_aborted'],
  ['<subagent_notification>', 'subagent_notification'],
  ['<skill>', 'skill'],
  ['<user_shell_command>', 'user_shell_command'],
  ['<collaboration_mode>', 'collaboration_mode'],
];

/** The context tag of an injected user-role text (`agents_md`, `environment_context`...), or ''. */
export function contextTag(text: string): string {
  const t = text.trimStart();
  for (const [prefix, tag] of CONTEXT_PREFIXES) if (t.startsWith(prefix)) return tag;
  return '';
}

/** One content item of a message: its text, or `[image]` for an image. */
export function itemText(item: unknown): { text: string; image: boolean } | undefined {
  if (typeof item === 'string') return { text: item, image: false };
  const o = asObject(item);
  if (!o) return undefined;
  const type = asString(o.type) ?? '';
  if (/image/i.test(type)) return { text: '[image]', image: true };
  const text = asString(o.text) ?? asString(o.content);
  return text === undefined ? undefined : { text, image: false };
}

/** The texts of a message's content (a string, or a list of items), in order. */
export function contentTexts(content: unknown): { text: string; image: boolean }[] {
  if (typeof content === 'string') return [{ text: content, image: false }];
  return (asArray(content) ?? []).flatMap((c) => {
    const t = itemText(c);
    return t ? [t] : [];
  });
}

/**
 * A tool output as the timeline shows it (spec, Parser plan): a string as is, unless it is the
 * JSON `{output, metadata{exit_code}}` of 2025 builds; a content list as its texts joined by
 * newlines with `[image]` per image; anything else as compact JSON. Prefixed `[exit N] ` when the
 * command failed.
 */
export function outputText(output: unknown): string {
  let text: string;
  let exit: number | undefined;
  if (typeof output === 'string') {
    text = output;
    const inner = parseWrapped(output);
    if (inner) {
      text = inner.output;
      exit = inner.exit;
    }
  } else if (Array.isArray(output)) {
    text = contentTexts(output)
      .map((t) => t.text)
      .join('\n');
  } else if (isObject(output) && typeof output.content === 'string') {
    text = output.content;
  } else if (isObject(output) && typeof output.output === 'string') {
    text = output.output;
    exit = asNumber(asObject(output.metadata)?.exit_code);
  } else {
    text = output === undefined ? '' : compactJson(output);
  }
  if (exit === undefined) {
    const m = /Process exited with code (-?\d+)/.exec(text.slice(0, 512));
    if (m) exit = Number(m[1]);
  }
  return exit !== undefined && exit !== 0 ? `[exit ${exit}] ${text}` : text;
}

function parseWrapped(s: string): { output: string; exit?: number } | undefined {
  if (!s.startsWith('{"output"') && !s.startsWith('{ "output"')) return undefined;
  try {
    const v = JSON.parse(s) as unknown;
    if (!isObject(v) || typeof v.output !== 'string') return undefined;
    return { output: v.output, exit: asNumber(asObject(v.metadata)?.exit_code) };
  } catch {
    return undefined;
  }
}

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'shell_command', 'container.exec', 'local_shell']);

/** A tool call's text: the command for the shell tools (a string, or an argv joined with spaces), else the arguments as written. */
export function callText(name: string, args: unknown): string {
  const raw = typeof args === 'string' ? args : args === undefined ? '' : compactJson(args);
  if (!SHELL_TOOLS.has(name)) return raw;
  let o: unknown = args;
  if (typeof args === 'string') {
    try {
      o = JSON.parse(args);
    } catch {
      return raw;
    }
  }
  const obj = asObject(o);
  const cmd = obj ? (obj.cmd ?? obj.command) : undefined;
  if (typeof cmd === 'string') return cmd;
  const argv = asArray(cmd);
  if (argv?.every((x) => typeof x === 'string')) return (argv as string[]).join(' ');
  return raw;
}

/** An argv (array of strings) joined with spaces, or the value as text. */
export function commandText(v: unknown): string {
  const argv = asArray(v);
  if (argv) return argv.map((x) => (typeof x === 'string' ? x : compactJson(x))).join(' ');
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : compactJson(v);
}
