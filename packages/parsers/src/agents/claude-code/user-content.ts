import type { TurnType } from '../../sdk/types.js';

/** What one piece of user-line text becomes: its turn type and text. */
export interface Classified {
  turn: TurnType;
  text: string;
  /** True when the text is a prompt the user typed (a plain string or a command the user ran). */
  typed: boolean;
}

// Wrappers Claude Code puts around what was not typed as a prompt; checked at the start of the
// trimmed text, so a prompt that merely mentions a tag stays a prompt.
const SYSTEM_PREFIXES: readonly [string, string][] = [
  ['<task-notification>', 'task notification'],
  ['Stop hook feedback:', 'stop hook feedback'],
  ['<system-reminder>', 'system reminder'],
  ['<ide_opened_file>', 'ide context'],
  ['<ide_selection>', 'ide context'],
];

function inner(text: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text);
  return m ? m[1] : undefined;
}

function innerAll(text: string, tags: readonly string[]): string {
  return tags
    .map((t) => inner(text, t))
    .filter((s): s is string => s !== undefined && s !== '')
    .join('\n');
}

/**
 * The command a `<command-name>` envelope stands for, as the history records it: `/name`, then
 * a space and the args when there are any. Undefined when the text is not an envelope.
 */
export function commandFromEnvelope(text: string): string | undefined {
  const t = text.trimStart();
  if (!t.startsWith('<command-')) return undefined;
  const name = inner(t, 'command-name')?.trim();
  if (!name) return undefined;
  const args = inner(t, 'command-args') ?? '';
  const cmd = name.startsWith('/') ? name : `/${name}`;
  return args.trim() === '' ? cmd : `${cmd} ${args}`;
}

/**
 * Classify the text of a user line (or a `local_command` system line) per the spec's parser plan:
 * a typed prompt, a command, shell input, command or shell output, an interrupt, a notification.
 * `isMeta` and `isCompactSummary` are decided by the caller before this.
 */
export function classifyUserText(text: string): Classified {
  const t = text.trimStart();
  const cmd = commandFromEnvelope(t);
  if (cmd !== undefined) return { turn: 'user', text: cmd, typed: true };
  if (t.startsWith('<bash-input>')) return { turn: 'user', text: `!${inner(t, 'bash-input') ?? ''}`, typed: true };
  if (t.startsWith('<local-command-stdout>') || t.startsWith('<local-command-stderr>')) {
    return { turn: 'system', text: `command output: ${innerAll(t, ['local-command-stdout', 'local-command-stderr'])}`, typed: false };
  }
  if (t.startsWith('<bash-stdout>') || t.startsWith('<bash-stderr>')) {
    return { turn: 'system', text: `shell output: ${innerAll(t, ['bash-stdout', 'bash-stderr'])}`, typed: false };
  }
  if (t.startsWith('<local-command-caveat>')) return { turn: 'system', text: `meta: ${text}`, typed: false };
  if (t.startsWith('[Request interrupted by user')) return { turn: 'system', text: `interrupted: ${text}`, typed: false };
  for (const [prefix, kind] of SYSTEM_PREFIXES) {
    if (t.startsWith(prefix)) return { turn: 'system', text: `${kind}: ${text}`, typed: false };
  }
  return { turn: 'user', text, typed: true };
}

/** The permission decision a tool_result's text implies, or undefined when it implies none. */
export function permissionDecision(resultText: string): string | undefined {
  if (resultText.startsWith("The user doesn't want to proceed with this tool use")) return 'permission decision: denied source=user';
  if (/^Permission to use \S[^\n]* has been denied/.test(resultText)) return 'permission decision: denied source=rule';
  if (resultText.startsWith('[Request interrupted by user for tool use]')) return 'permission decision: interrupted';
  return undefined;
}
