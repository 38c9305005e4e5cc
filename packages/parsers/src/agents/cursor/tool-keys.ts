import { asObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { toolCallText } from './text.js';

/**
 * One tool family under the names Cursor's stores give it: the IDE database's `toolFormerData`
 * names and `rawArgs` (shared/agents/cursor.md; jverre/agents-for-cursor
 * docs/cursor-tool-bubble-format.md) and the agent's names in transcripts (the spec's fixture,
 * the real `anuragabhay__my-dev-workspace` transcripts). `args` lists, per key part, the argument
 * that holds it under each name; a call lacking one of them gets no key.
 */
interface Family {
  family: string;
  /** Tool name → the argument names of the key parts, in the order of `parts`. */
  names: Record<string, string[]>;
  parts: string[];
}

// Only names seen with their arguments: the database's search_replace {file_path, old_string,
// new_string}, read_file {target_file, limit}, list_dir {target_directory}, grep {pattern, path},
// glob_file_search {target_directory, glob_pattern}; the transcripts' StrReplace {path,
// old_string, new_string}, Read {path, limit, offset}, LS and list_dir {target_directory}, Grep
// {pattern, path}, Glob {target_directory, glob_pattern}. Optional parts (offset, limit) are in
// the key when present, so two reads of one file at different places never stand for each other.
const FAMILIES: Family[] = [
  { family: 'edit', parts: ['path', 'old', 'new'], names: { search_replace: ['file_path', 'old_string', 'new_string'], StrReplace: ['path', 'old_string', 'new_string'] } },
  { family: 'read', parts: ['path', '?offset', '?limit'], names: { read_file: ['target_file', 'offset', 'limit'], Read: ['path', 'offset', 'limit'] } },
  { family: 'list', parts: ['dir'], names: { list_dir: ['target_directory'], LS: ['target_directory'] } },
  { family: 'grep', parts: ['pattern', 'path'], names: { grep: ['pattern', 'path'], Grep: ['pattern', 'path'] } },
  { family: 'glob', parts: ['dir', 'pattern'], names: { glob_file_search: ['target_directory', 'glob_pattern'], Glob: ['target_directory', 'glob_pattern'] } },
];

const BY_NAME = new Map<string, { family: Family; args: string[] }>();
for (const f of FAMILIES) for (const [name, args] of Object.entries(f.names)) BY_NAME.set(name, { family: f, args });

const scalar = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

/**
 * The dedup key of a tool call, the same for the database's and the transcript's copy of one
 * call: the family and its key arguments (a path, a pattern, the replaced strings), NUL-joined so
 * no row text can be mistaken for it. `undefined` for a tool not in the table, or a call lacking a
 * required argument: its row is then matched on its own text only (never dropped on a guess).
 */
export function toolDedupKey(name: string, args: unknown): string | undefined {
  const entry = BY_NAME.get(name);
  const o = asObject(args);
  if (!entry || !o) return undefined;
  const out = ['cursor tool', entry.family.family];
  for (let i = 0; i < entry.family.parts.length; i++) {
    const optional = entry.family.parts[i].startsWith('?');
    const v = scalar(o[entry.args[i]]);
    if (v === undefined && !optional) return undefined;
    out.push(v === undefined ? '' : `${entry.family.parts[i].replace('?', '')}=${v}`);
  }
  return out.join('\0');
}

/** A tool call's row: its text (the command, else the arguments' JSON) and its dedup key, if any. */
export function toolUseRow(name: string, args: unknown, fields: Partial<Row>): Row {
  const key = toolDedupKey(name, args);
  return makeRow('tool_use', toolCallText(name, args), key === undefined ? { ...fields, tool_name: name } : { ...fields, tool_name: name, dedup_key: key });
}
