import { posix } from 'node:path';
import { asObject, asString } from '../../sdk/decode.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact } from '../../sdk/types.js';
import { pathOfUri } from './text.js';

/**
 * The project a `workspace.json` names: `{"folder": "<URI>"}` gives the folder, `{"workspace":
 * "<URI of a .code-workspace file>"}` the folder that file is in; '' for anything else.
 */
export function projectOfWorkspace(value: unknown): string {
  const o = asObject(value);
  const folder = asString(o?.folder);
  if (folder) return pathOfUri(folder);
  const ws = asString(o?.workspace);
  if (!ws) return '';
  const p = pathOfUri(ws);
  if (p === ws && !ws.startsWith('/')) return ws;
  return /^[A-Za-z]:\\/.test(p) ? p.replace(/\\[^\\]*$/, '') || p : posix.dirname(p);
}

/** Read a small workspace.json artifact; '' when it is absent, unreadable or names nothing. */
export async function readWorkspaceProject(a: Artifact | undefined): Promise<string> {
  if (!a) return '';
  const r = await readSmall(a.stream(), 1024 * 1024);
  if (!r.ok) return '';
  try {
    return projectOfWorkspace(JSON.parse(decodeText(r.buffer)));
  } catch {
    return '';
  }
}
