/**
 * The project a workspace file belongs to. The IDE names `workspace/<id>.xml` by the project's
 * `projectWorkspaceId`; the same config folder's `options/recentProjects.xml` (Rider:
 * `recentSolutions.xml`, keyed by the solution file) maps that id back to the project's path,
 * written with `$USER_HOME$` for the home (IntelliJ's RecentProjectsManager and its
 * RecentProjectMetaInfo bean).
 */
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact } from '../../sdk/types.js';
import { parseXml, type XmlNode } from './xml-tree.js';

/** The recent-project lists beside `workspace/`, and whether their keys name a file inside the project (a .sln). */
const LISTS: [file: string, keyIsFile: boolean][] = [
  ['../options/recentProjects.xml', false],
  ['../options/recentSolutions.xml', true],
];

const HOME_TOKEN = '$USER_HOME$';

/** The path with the IDE's home token replaced by the collected home, in the home's own separators; as written when the home is unknown. */
export function expandUserHome(path: string, home: string): string {
  if (!path.startsWith(HOME_TOKEN) || home === '') return path;
  const rest = path.slice(HOME_TOKEN.length);
  const windows = home.includes('\\');
  return home.replace(/[\\/]+$/, '') + (windows ? rest.replaceAll('/', '\\') : rest);
}

/** The key of the `entry` whose RecentProjectMetaInfo carries `id`, without recursion (a list nested deep must not overflow the stack). */
function keyOf(root: XmlNode, id: string): string | undefined {
  const todo: [node: XmlNode, entry: string | undefined][] = [[root, undefined]];
  for (let t = todo.pop(); t; t = todo.pop()) {
    const [n, entry] = t;
    if (n.name === 'RecentProjectMetaInfo' && n.attrs.projectWorkspaceId === id && entry !== undefined) return entry;
    const inner = n.name === 'entry' && n.attrs.key !== undefined ? n.attrs.key : entry;
    for (const c of n.children) todo.push([c, inner]);
  }
  return undefined;
}

/** The project of the workspace file `a` (`…/workspace/<id>.xml`), '' when no recent-project list names its id. */
export async function workspaceProject(a: Artifact): Promise<string> {
  const id = /([^/]+)\.xml$/.exec(a.rel)?.[1];
  if (!id) return '';
  for (const [file, keyIsFile] of LISTS) {
    const list = a.sibling(file);
    if (!list) continue;
    let text: string;
    try {
      const r = await readSmall(list.stream(), 16 * 1024 * 1024);
      if (!r.ok) continue;
      text = decodeText(r.buffer);
    } catch {
      // An unreadable list only costs the chats their project.
      continue;
    }
    const key = keyOf(parseXml(text).root, id);
    if (key === undefined) continue;
    const path = keyIsFile ? key.replace(/[\\/][^\\/]*$/, '') : key;
    return expandUserHome(path, a.home ?? '');
  }
  return '';
}
