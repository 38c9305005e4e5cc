import type { OpenCodeProfile } from './profile.js';

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const names = (list: readonly string[]): string => list.map(esc).join('|');

/**
 * The paths one member of the OpenCode family writes, as regexes over a home-relative (or
 * project-relative) path. xdg-basedir gives the same `.local/share`, `.config`, `.local/state`
 * on Linux, macOS and (under the profile) Windows; a moved `XDG_*_HOME` is collected as that
 * same folder, so one spelling covers every OS.
 */
export class OpenCodePaths {
  /** The database: `.local/share/<app>/<db name>`. */
  readonly db: RegExp;
  /** Legacy JSON store: `storage/<kind>/.../<id>.json` (kind = session, message, part, todo, permission, session_share). */
  readonly storage: RegExp;
  /** The oldest layout: `project/<slug>/storage/session/{info,message,part}/...json`. */
  readonly oldest: RegExp;
  /** Config files: the config folder's, `~/.opencode/`'s, and a project's (root or hidden folder). */
  readonly config: RegExp;
  /** `.local/state/<app>/model.json`: recent and favourite models. */
  readonly modelState: RegExp;

  constructor(readonly profile: OpenCodeProfile) {
    const app = esc(profile.app);
    const data = `\\.local/share/${app}`;
    this.db = new RegExp(`^${data}/(?:${profile.dbNames})$`);
    this.storage = new RegExp(`^${data}/storage/(session|message|part|todo|permission|session_share)/(?:[^/]+/)?[^/]+\\.json$`);
    this.oldest = new RegExp(`^${data}/project/[^/]+/storage/session/(info|message|part)/(?:[^/]+/){0,2}[^/]+\\.json$`);
    const dirs = names(profile.projectDirs);
    this.config = new RegExp(`^(?:\\.config/${app}/(?:${names(profile.configNames)})|(?:(?:${dirs})/)?(?:${names(profile.projectConfigNames)}))$`);
    this.modelState = new RegExp(`^\\.local/state/${app}/model\\.json$`);
  }

  /** The legacy store kind of a path (`session`, `message`, `part`, `todo`, `permission`, `session_share`), or ''. */
  storageKind(rel: string): string {
    const m = this.storage.exec(rel) ?? this.oldest.exec(rel);
    if (!m) return '';
    return m[1] === 'info' ? 'session' : m[1];
  }
}
