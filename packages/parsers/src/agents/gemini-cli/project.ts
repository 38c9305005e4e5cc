/**
 * The project a `tmp/<id>/` directory belongs to. Since v0.29 `<id>` is a slug whose
 * `.project_root` names the root (normalized: lower-cased on Windows); before, `<id>` was
 * sha256(root), which is not reversible. Every chat also carries `projectHash` = sha256 of the
 * root as the CLI saw it (original case), so a known path is matched to its folder by hashing it:
 * the registry (projects.json keys), trustedFolders.json keys, the chat's own workspace
 * directories and the paths its tools touched, each with its ancestors.
 */
import { createHash } from 'node:crypto';
import { asObject, isObject } from '../../sdk/decode.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact } from '../../sdk/types.js';
import { type FamilyPaths, isProjectHash } from './paths.js';

const MAX_REGISTRY_BYTES = 16 * 1024 * 1024;
const MAX_CANDIDATES = 20_000;

/** What a chat itself says about its project. */
export interface ProjectClues {
  /** The chat's `projectHash` (sha256 of the root), '' when absent. */
  projectHash: string;
  /** Paths the chat names, best first: workspace directories, then paths its tools touched. */
  paths: string[];
}

/** An absolute path as any OS records it (`/x`, `C:\x`, `C:/x`, `\\server\share`). */
export function isAbsolutePath(p: string): boolean {
  return (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')) && !p.includes('\0') && p.length < 4096;
}

/** The path and each of its ancestors, nearest first (`C:\a\b` → `C:\a\b`, `C:\a`, `C:\`). */
export function withAncestors(p: string): string[] {
  const sep = /^[A-Za-z]:\\|^\\\\/.test(p) || (!p.includes('/') && p.includes('\\')) ? '\\' : '/';
  const out: string[] = [];
  let cur = p.length > 1 && p.endsWith(sep) && !/^[A-Za-z]:\\$/.test(p) ? p.slice(0, -1) : p;
  while (cur && !out.includes(cur)) {
    out.push(cur);
    const i = cur.lastIndexOf(sep);
    if (i < 0) break;
    const parent = i === 0 ? sep : /^[A-Za-z]:$/.test(cur.slice(0, i)) ? cur.slice(0, i + 1) : cur.slice(0, i);
    if (parent === cur) break;
    cur = parent;
  }
  return out;
}

/** sha256 hex of a path string, as getProjectHash computes it. */
export function projectHashOf(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

async function readText(a: Artifact | undefined): Promise<string | undefined> {
  if (!a) return undefined;
  const r = await readSmall(a.stream(), MAX_REGISTRY_BYTES);
  return r.ok ? decodeText(r.buffer) : undefined;
}

async function jsonKeys(a: Artifact | undefined, at?: string): Promise<string[]> {
  const text = await readText(a);
  if (text === undefined) return [];
  try {
    const doc: unknown = JSON.parse(text);
    const o = at ? asObject(isObject(doc) ? doc[at] : undefined) : asObject(doc);
    return o ? Object.keys(o) : [];
  } catch {
    return [];
  }
}

/** The `.project_root` of the artifact's project directory, trimmed; '' when absent. */
export async function projectRootFile(a: Artifact, paths: FamilyPaths): Promise<string> {
  const name = paths.projectDirName(a.rel);
  if (!name) return '';
  // The slug's ownership marker sits in tmp/<slug>/ and history/<slug>/ alike.
  const up = paths.toStateDir(a.rel);
  const layout = a.rel.split('/')[1];
  for (const dir of [layout, 'tmp', 'history']) {
    const text = await readText(a.sibling(`${up}${dir}/${name}/.project_root`));
    if (text?.trim()) return text.trim();
  }
  return '';
}

/**
 * The project root of an artifact under `tmp/<id>/`: the candidate whose sha256 is the chat's
 * projectHash (or the directory's hash name), else `.project_root`, else the chat's first
 * workspace directory, else ''.
 */
export async function resolveProject(a: Artifact, paths: FamilyPaths, clues: ProjectClues = { projectHash: '', paths: [] }): Promise<string> {
  const dir = paths.projectDirName(a.rel);
  const root = await projectRootFile(a, paths);
  const wanted = (clues.projectHash || (isProjectHash(dir) ? dir : '')).toLowerCase();
  const up = paths.toStateDir(a.rel);
  const trusted = await jsonKeys(a.sibling(`${up}trustedFolders.json`));
  if (wanted) {
    const registry = [...trusted, ...(await jsonKeys(a.sibling(`${up}projects.json`), 'projects'))];
    const seen = new Set<string>();
    for (const c of [...clues.paths, root, ...registry]) {
      if (!c || !isAbsolutePath(c)) continue;
      for (const p of withAncestors(c)) {
        if (seen.has(p) || seen.size >= MAX_CANDIDATES) continue;
        seen.add(p);
        if (projectHashOf(p) === wanted) return p;
      }
    }
  }
  // On Windows .project_root is lower-cased; a path the user or the chat spelled keeps the case.
  const spelled = root ? [...clues.paths, ...trusted].find((c) => c !== root && c.toLowerCase() === root.toLowerCase()) : undefined;
  return spelled || root || clues.paths[0] || '';
}
