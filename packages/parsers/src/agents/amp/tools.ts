/**
 * Amp's tool calls and results as text (shapes from the peer parsers named in shared/agents/amp.md:
 * kenn-io/agentsview amp.go and vshulcz/deja-vu's registry; Amp is closed source).
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';

const str = (v: unknown): string => asString(v) ?? '';

/** A call's input as text: the command of a shell tool, the path of a file tool, a patch, else the input as JSON. */
export function toolUseText(name: string, input: unknown): string {
  const i: JsonObject = isObject(input) ? input : {};
  if (name === 'Bash' && typeof i.cmd === 'string') return i.cmd;
  if (typeof i.command === 'string') return typeof i.workdir === 'string' && i.workdir ? `${i.command} (in ${i.workdir})` : i.command;
  if (typeof i.patchText === 'string') return i.patchText;
  if (typeof i.path === 'string' && /^(?:Read|read_file|edit_file|create_file|Write|Edit)$/i.test(name)) return i.path;
  return input === undefined ? '' : compactJson(input);
}

/** A result value as text: a string, an object's output / content / diff, else its JSON; a non-zero exit code noted (-1 means none). */
export function resultText(r: unknown): string {
  if (typeof r === 'string') return r;
  // One level of list only: a list nested thousands deep prints as JSON, never recursing.
  if (Array.isArray(r)) return r.map((x) => (Array.isArray(x) ? compactJson(x) : resultText(x))).join('\n');
  if (!isObject(r)) return r === undefined || r === null ? '' : compactJson(r);
  const body = typeof r.output === 'string' ? r.output : typeof r.content === 'string' ? r.content : typeof r.diff === 'string' ? r.diff : typeof r.text === 'string' ? r.text : compactJson(r);
  const code = asNumber(r.exitCode);
  return code !== undefined && code !== 0 && code !== -1 ? `${body}\n[exit ${code}]` : body;
}

/** The status and text of a tool_result block, in Amp's shape (`toolUseID`, `run`) or the canonical one (`tool_use_id`, `content`). */
export function toolResult(b: JsonObject): { id: string; status: string; text: string; error: boolean } {
  if (isObject(b.run)) {
    const run = b.run;
    const status = str(run.status);
    const err = isObject(run.error) ? str(run.error.message) : str(run.error);
    const text = resultText(run.result) || err;
    return { id: str(b.toolUseID) || str(b.tool_use_id), status, text, error: status === 'error' || (err !== '' && !resultText(run.result)) };
  }
  return { id: str(b.tool_use_id) || str(b.toolUseID), status: '', text: resultText(b.content), error: b.is_error === true };
}
