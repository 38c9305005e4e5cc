import { posix } from 'node:path';

// Where a tool call names the files it acts on: JSON argument keys, apply_patch headers, and
// (in a command line) words that start like a path.
const KEY = /"(?:file_?path|filePath|path|target_file|targetFile|filename|notebook_path|absolute_path|dir_path|destination|target)"\s*:\s*"((?:[^"\\]|\\.)+)"/g;
const PATCH = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;
const WORD = /(?:^|[\s=>'"])((?:\/|~\/|~$|\.\.\/|\$HOME\/?|[A-Za-z]:\\)[^\s'";|&<>]*)/g;
const DEVICES = /^\/(?:dev|proc)\//;
const SCAN = 8192;

/** Paths a tool call's text names, as written (the first 8 KB of the text). */
export function pathsIn(text: string): string[] {
  const t = text.slice(0, SCAN);
  const out: string[] = [];
  for (const m of t.matchAll(KEY)) out.push(m[1].replace(/\\\\/g, '\\'));
  for (const m of t.matchAll(PATCH)) out.push(m[1].trim());
  // A JSON argument object's other values, and a patch's lines, are content (code, prose), not
  // paths the call acts on: a Dockerfile's `rm -rf /var/lib/apt/lists/*` in a patch is not a delete.
  if (!t.trimStart().startsWith('{') && !t.includes('*** Begin Patch')) for (const m of t.matchAll(WORD)) out.push(m[1]);
  return out;
}

/**
 * The paths of {@link pathsIn} that are outside `project` (relative ones resolved against it;
 * `~` and `$HOME` count as outside, since the home is not the project), newline-separated;
 * '' when the row has no project to compare with. Device files (`/dev/null`) are left out.
 */
export function pathsOutside(text: string, project: string): string {
  if (project === '' || text === '') return '';
  const win = /^[A-Za-z]:[\\/]/.test(project);
  const norm = (p: string) => (win ? p.replace(/\\/g, '/').toLowerCase() : p);
  const root = norm(project).replace(/\/+$/, '');
  const out = new Set<string>();
  for (const raw of pathsIn(text)) {
    const p = norm(raw);
    if (DEVICES.test(p) || p === '/') {
      if (p === '/') out.add(raw);
      continue;
    }
    if (p.startsWith('~') || p.startsWith('$home')) {
      out.add(raw);
      continue;
    }
    const abs = p.startsWith('/') || /^[a-z]:\//.test(p) ? posix.normalize(p) : posix.join(root, p);
    if (abs !== root && !abs.startsWith(`${root}/`)) out.add(raw);
  }
  return [...out].join('\n');
}
