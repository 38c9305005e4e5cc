/**
 * A block of "> " lines of the chat history: aider's own output (aider/io.py tool_output,
 * tool_warning, tool_error, confirm_ask). Lines that say something a responder looks for become
 * rows of their own (a model, a confirm question and its answer, a file edit, a commit, token
 * usage); the rest of the block is one row (the output of a "/run" command, or status text).
 * Secrets a command line may carry (`--api-key ...`) are redacted before any row is written.
 */
import type { Row } from '../../sdk/types.js';

/** What the status rows need of the chat run. */
export interface StatusRun {
  model: string;
  shell: { id: string; command: string } | undefined;
  row(turn: Row['turn_type'], text: string, line: number, fields?: Partial<Row>): Row;
}

// confirm_ask writes "<question> (Y)es/(N)o[/(A)ll/(S)kip all/(D)on't ask again] [Default]: <answer>".
const CONFIRM = /^(.*?\?)\s*\(Y\)es\/\(N\)o[^\]]*\[[^\]]*\]:\s*(\S*)\s*$/;
const MODEL = /^(Model|Main model|Editor model|Weak model):\s*(\S+)(?:\s+with\s+(.+?)\s+edit format)?/;
const APPLIED = /^Applied edit to (.+)$/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.+)$/;
const TOKENS = /^Tokens: .+ sent, .+ received/;
const SECRET_ARG = /(--[\w-]*(?:api[-_]?key|token|secret|password)[\w-]*)(=|\s+)("[^"]*"|'[^']*'|\S+)/gi;

/** A line with the values of secret-named options replaced (a command line echoed in the banner). */
export function redact(line: string): string {
  return line.replace(SECRET_ARG, (_m, opt: string, sep: string) => `${opt}${sep}[redacted]`);
}

function decision(answer: string): string {
  const a = answer.toLowerCase();
  if (a === 'y' || a === 'yes' || a === 'a' || a === 'all') return 'approved';
  if (a === 'n' || a === 'no' || a === 's' || a === 'skip') return 'denied';
  if (a === 'd') return "denied (don't ask again)";
  return a ? `answered ${answer}` : 'no answer';
}

/** The rows of one status block. */
export function statusRows(run: StatusRun, lines: readonly string[], first: number): Row[] {
  const rows: Row[] = [];
  const rest: string[] = [];
  lines.forEach((raw, i) => {
    const text = redact(raw);
    const line = first + i;
    const confirm = CONFIRM.exec(text);
    const model = MODEL.exec(text);
    const applied = APPLIED.exec(text);
    const commit = COMMIT.exec(text);
    if (confirm) rows.push(run.row('system', `${decision(confirm[2])}: ${confirm[1]} [${confirm[2] || 'no answer'}]`, line, { tag: 'permission_decision' }));
    else if (model) {
      if (model[1] === 'Model' || model[1] === 'Main model') run.model = model[2];
      rows.push(run.row('system', `${model[1].toLowerCase()}: ${model[2]}${model[3] ? ` (${model[3]} edit format)` : ''}`, line, { model: model[2], tag: 'model' }));
    } else if (applied) rows.push(run.row('system', `file changed: ${applied[1]}`, line, { tool_name: 'edit', tag: 'file_change' }));
    else if (commit) rows.push(run.row('system', `git commit ${commit[1]}: ${commit[2]}`, line, { tag: 'git_commit' }));
    else if (TOKENS.test(text)) rows.push(run.row('system', text, line, { model: run.model, tag: 'usage' }));
    else rest.push(text);
  });
  if (rest.length > 0) {
    const text = rest.join('\n').trim();
    if (run.shell) rows.push(run.row('tool_result', text, first, { tool_name: 'shell', tool_use_id: run.shell.id }));
    else if (text) rows.push(run.row('system', text, first, { tag: 'status' }));
  }
  return rows.sort((x, y) => (x.source_line ?? 0) - (y.source_line ?? 0));
}
