import type { ParseError } from 'jsonc-parser';
import { asString, describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { parseJsonc, whyUnparsed } from '../../sdk/json-document.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { describe, locate, matcher } from './paths.js';
import { uriToPath } from './uri.js';
import { jsoncLib } from '../../sdk/libs.js';

/** The agent id: catalog file, parser folder and registry entry. */
export const AGENT = 'vscode-copilot-chat';

/** What differs between this agent's parsers; the rest of {@link Parser} is shared. */
export interface VscodeParserSpec {
  name: string;
  /** Regex sources below <U>, <D> and a project root (paths.ts). */
  user?: readonly string[];
  data?: readonly string[];
  project?: readonly string[];
  /** Whether a wanted file is a secondary store (spec, "Past-use rows and secondary sources"). */
  secondary: (rel: string) => boolean;
  toleranceSeconds: (rel: string) => number;
  readsSecretFile?: boolean;
  /** Parser.copyRank: where a file stands among copies of one session (default 0). */
  copyRank?: (rel: string) => number;
  parse(a: Artifact, ctx: ParseContext): AsyncIterable<Row>;
}

/** A vscode-copilot-chat {@link Parser}: wants() from the patterns, recordsSync true (cloudSessions.json says). */
export function vscodeParser(spec: VscodeParserSpec): Parser {
  const wants = matcher(spec);
  const p: Parser = {
    agent: AGENT,
    name: spec.name,
    patterns: [...describe(spec.user ?? [], '<U>'), ...describe(spec.data ?? [], '<D>'), ...describe(spec.project ?? [], '')],
    wants,
    secondary: (rel) => wants(rel) && spec.secondary(rel),
    secondaryToleranceSeconds: (rel) => (wants(rel) && spec.secondary(rel) ? spec.toleranceSeconds(rel) : 0),
    recordsSync: true,
    readsSecretFile: (rel) => spec.readsSecretFile === true && wants(rel),
    parse: (a, ctx) => spec.parse(a, ctx),
  };
  if (spec.copyRank) {
    const rank = spec.copyRank;
    p.copyRank = (rel) => (wants(rel) ? rank(rel) : 0);
  }
  return p;
}

/**
 * JSON files read whole (edit state, settings, sync map) are small (real edit states: 100 to 140
 * KB); past this one is refused with a row saying so: parsed whole it could exhaust the analysis
 * heap (256 MB by default) and stop the whole run.
 */
export const SMALL_FILE_BYTES = 32 * 1024 * 1024;

/** The whole artifact as text, or the one unreadable row that says why not. */
export async function readText(a: Artifact, maxBytes = SMALL_FILE_BYTES): Promise<{ text: string } | { row: Row }> {
  try {
    const r = await readSmall(a.stream(), maxBytes);
    if (!r.ok) return { row: unreadableRow(r.reason) };
    return { text: decodeText(r.buffer) };
  } catch (e) {
    return { row: unreadableRow(`could not read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
  }
}

/** How a JSON value reads in a "found ..." message (the SDK's). */
export { describeJson };

/** The artifact as a JSON object (JSON with comments accepted), or the row that says what was found. */
export async function readJsonObject(a: Artifact, expected: string): Promise<{ value: JsonObject } | { row: Row }> {
  const t = await readText(a);
  if ('row' in t) return t;
  if (t.text.trim() === '') return { row: unreadableRow(`expected JSON ${expected}, found an empty file`) };
  const errors: ParseError[] = [];
  let v: unknown;
  try {
    v = parseJsonc(t.text, errors);
  } catch (e) {
    return { row: unreadableRow(`expected JSON ${expected}, found text that cannot be parsed: ${whyUnparsed(e)}`) };
  }
  if (errors.length > 0) {
    const line = t.text.slice(0, errors[0].offset).split('\n').length;
    return { row: unreadableRow(`expected JSON ${expected}, found invalid JSON: ${jsoncLib().printParseErrorCode(errors[0].error)} at line ${line}`, { source_line: line }) };
  }
  if (!isObject(v)) return { row: unreadableRow(`expected JSON ${expected}, found ${describeJson(v)}`) };
  return { value: v };
}

/** A workspace folder's project, from its workspace.json. */
export interface Project {
  /** The folder's path, or the `.code-workspace` file's for a multi-root workspace ('' when none). */
  path: string;
  /** The workspaceStorage folder id ('' outside workspace storage). */
  workspace: string;
}

/**
 * The project of a file under `<U>/workspaceStorage/<id>/`: that folder's workspace.json, read as a
 * sibling (spec: "Every chat session in chatSessions/ of that folder, every extension file under
 * GitHub.copilot-chat/ of it, and every state.vscdb key in it belong to that project").
 */
export async function projectOf(a: Artifact, ctx?: ParseContext): Promise<Project> {
  const m = /(?:^|\/)workspaceStorage\/([^/]+)\/(.+)$/.exec(a.rel);
  if (!m) return { path: '', workspace: '' };
  const up = '../'.repeat(m[2].split('/').length - 1);
  const w = a.sibling(`${up}workspace.json`);
  if (!w) return { path: '', workspace: m[1] };
  const r = await readJsonObject(w, '{"folder": "<uri>"} or {"workspace": "<uri>"}');
  if ('row' in r) {
    ctx?.warn(`${w.rel}: ${r.row.text.replace(/^parser: unreadable file \((.*)\)$/, '$1')}; the project path is left empty`);
    return { path: '', workspace: m[1] };
  }
  const uri = r.value.folder ?? r.value.workspace ?? r.value.configuration;
  return { path: uriToPath(asString(uri) ?? uri), workspace: m[1] };
}

/** The editor that wrote a file, for the sessions' `client` fact (`Visual Studio Code`, `Cursor (remote)`). */
export function clientOf(rel: string): string {
  const loc = locate(rel);
  if (!loc) return '';
  return loc.remote ? `${loc.editor} (remote)` : loc.editor;
}

/** ISO-8601 UTC from epoch milliseconds, or '' (the index's created= field). */
export function iso(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 253402300799999) return '';
  return new Date(ms).toISOString();
}
