import type path from 'node:path';

/** The operating system layout of the target (or of a mounted image). */
export type Layout = 'linux' | 'darwin' | 'win32';

/** A `path` module: path.posix or path.win32. */
export type PathModule = typeof path.posix;

/** One directory entry as the discovery functions see it (from lstat: links are not directories). */
export interface DirEntry {
  name: string;
  isDir: boolean;
}

/** Lists a directory; undefined when it does not exist or cannot be listed. */
export type ListDir = (dir: string) => DirEntry[] | undefined;

/** A home found for collection, with its collection-unique user name. */
export interface Home {
  user: string;
  home: string;
}

const WIN_SKIP = new Set(['public', 'default', 'default user', 'all users', 'desktop.ini', 'defaultapppool']);
const MAC_SKIP = new Set(['shared', 'guest']);
const LINUX_SKIP = new Set(['lost+found']);

/** Windows and macOS file systems ignore case: globs and names are matched case-insensitively. */
export function layoutIgnoresCase(layout: Layout): boolean {
  return layout !== 'linux';
}

/** The layout of a mounted image: Users/ with Library/ or System/ → macOS, Users/ → Windows, home/ → Linux. */
export function detectLayout(root: string, p: PathModule, list: ListDir): Layout | undefined {
  const top = list(root);
  if (!top) return undefined;
  const has = (name: string) => top.some((e) => e.isDir && e.name.toLowerCase() === name.toLowerCase());
  const real = (name: string) => top.find((e) => e.isDir && e.name.toLowerCase() === name.toLowerCase())?.name;
  if (has('Users')) {
    if (has('Library') || has('System') || has('Applications')) return 'darwin';
    if (has('Windows') || has('ProgramData') || has('Program Files')) return 'win32';
    // Users/ alone: look for a macOS home (Library) against a Windows one (AppData or NTUSER.DAT).
    const users = list(p.join(root, real('Users')!)) ?? [];
    for (const u of users.filter((e) => e.isDir)) {
      const inner = list(p.join(root, real('Users')!, u.name)) ?? [];
      if (inner.some((e) => e.name === 'Library')) return 'darwin';
      if (inner.some((e) => e.name.toLowerCase() === 'appdata' || e.name.toLowerCase() === 'ntuser.dat')) return 'win32';
    }
    return 'win32';
  }
  if (has('home') || has('root') || has('etc')) return 'linux';
  return undefined;
}

/** Directories whose children are homes, and single homes, for a layout (live system or under `root`). */
export function homeParents(
  layout: Layout,
  p: PathModule,
  opts: { root?: string; env?: Record<string, string | undefined> },
): { parents: string[]; singles: string[] } {
  const at = (...segs: string[]) => (opts.root ? p.join(opts.root, ...segs) : p.join(p.sep, ...segs));
  if (layout === 'win32') {
    if (opts.root) return { parents: [p.join(opts.root, 'Users')], singles: [] };
    const drive = (opts.env?.SystemDrive ?? 'C:').replace(/[\\/]+$/, '');
    return { parents: [`${drive}\\Users`], singles: [] };
  }
  if (layout === 'darwin') {
    // On a mounted macOS volume /var is a link to /private/var, which is never followed.
    const singles = opts.root ? [at('private', 'var', 'root'), at('var', 'root')] : [at('var', 'root')];
    return { parents: [at('Users')], singles };
  }
  return { parents: [at('home')], singles: [at('root')] };
}

/** Find the homes of a layout: children of the home parents (minus system folders) and the single homes. */
export function discoverHomes(
  layout: Layout,
  p: PathModule,
  list: ListDir,
  opts: { root?: string; env?: Record<string, string | undefined> } = {},
): string[] {
  const skip = layout === 'win32' ? WIN_SKIP : layout === 'darwin' ? MAC_SKIP : LINUX_SKIP;
  const { parents, singles } = homeParents(layout, p, opts);
  const out: string[] = [];
  for (const parent of parents) {
    const entries = list(parent) ?? [];
    for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!e.isDir || skip.has(e.name.toLowerCase()) || e.name.startsWith('.')) continue;
      out.push(p.join(parent, e.name));
    }
  }
  for (const single of singles) {
    const entries = list(p.dirname(single));
    if (entries?.some((e) => e.isDir && e.name === p.basename(single)) && !out.includes(single)) {
      out.push(single);
      break;
    }
  }
  return out;
}

/** Name each home by its folder name, made unique with -2, -3, ... on collision. */
export function uniqueUsers(homes: string[], p: PathModule): Home[] {
  const used = new Set<string>();
  return homes.map((home) => {
    const base = safeUserName(p.basename(p.resolve(home)) || 'root');
    let user = base;
    for (let n = 2; used.has(user.toLowerCase()); n += 1) user = `${base}-${n}`;
    used.add(user.toLowerCase());
    return { user, home };
  });
}

/** A folder name made safe as one zip path segment. */
function safeUserName(name: string): string {
  const cleaned = name.replace(/[\\/:\0]/g, '_');
  return cleaned === '.' || cleaned === '..' || cleaned === '' ? '_' : cleaned;
}

/** Where a path recorded on the target (e.g. a project cwd) is on this machine: itself, or under the mounted root. */
export function mapTargetPath(target: string, layout: Layout, p: PathModule, root?: string): string | undefined {
  if (layout === 'win32') {
    const m = /^([A-Za-z]):[\\/](.*)$/.exec(target);
    if (!m) return undefined;
    if (!root) return `${m[1]}:\\${m[2].replace(/\//g, '\\')}`;
    return p.join(root, ...m[2].split(/[\\/]+/).filter(Boolean));
  }
  if (!target.startsWith('/')) return undefined;
  if (!root) return p.normalize(target);
  return p.join(root, ...target.split('/').filter(Boolean));
}
