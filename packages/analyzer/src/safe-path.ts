import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Why a manifest `archive_path` was refused (it could escape the collection directory). */
export class UnsafePathError extends Error {}

/**
 * Check an archive member name as the manifest gives it: relative, `/`-separated, no `..`, no
 * empty segments, no backslash or drive letter, no NUL. A collection comes from someone else's
 * machine, so its manifest is untrusted input.
 */
export function checkArchivePath(name: string): string {
  const bad = (why: string) => new UnsafePathError(`expected a relative archive path inside the collection, found ${JSON.stringify(name)} (${why}); the manifest row is ignored`);
  if (name === '') throw bad('empty');
  if (name.includes('\0')) throw bad('NUL byte');
  if (name.includes('\\')) throw bad('backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || isAbsolute(name)) throw bad('absolute');
  for (const seg of name.split('/')) {
    if (seg === '..' || seg === '.' || seg === '') throw bad(`segment ${JSON.stringify(seg)}`);
  }
  return name;
}

/** Join a checked archive path under `root`; throws {@link UnsafePathError} when it would leave `root`. */
export function safeJoin(root: string, name: string): string {
  checkArchivePath(name);
  const base = resolve(root);
  const full = resolve(join(base, ...name.split('/')));
  const rel = relative(base, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw new UnsafePathError(`expected a path inside ${base}, found ${JSON.stringify(name)} resolving to ${full}; the manifest row is ignored`);
  }
  return full;
}
