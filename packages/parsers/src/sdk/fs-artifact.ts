import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Artifact } from './types.js';

/** Options for {@link artifactFromFile}. */
export interface FsArtifactOptions {
  user?: string;
  host?: string;
  scope?: Artifact['scope'];
  /** The home directory on the target, as a collection records it (default ''). */
  home?: string;
  /** Override the recorded mtime (ISO-8601 UTC); default: the file's own. */
  mtime?: string;
  /** Compute the SHA-256 (reads the file once more); default false. */
  hash?: boolean;
}

/**
 * An {@link Artifact} over a file already on the analyst's disk, `rel` relative to `homeDir`.
 * For tests, plugin authors and unpacked collections; SQLite files are opened where they lie,
 * so only use it on copies, never on evidence.
 */
export function artifactFromFile(homeDir: string, rel: string, opts: FsArtifactOptions = {}): Artifact {
  const path = join(homeDir, ...rel.split('/'));
  const st = statSync(path);
  const a: Artifact = {
    rel,
    user: opts.user ?? 'user',
    host: opts.host ?? 'host',
    scope: opts.scope ?? 'home',
    home: opts.home ?? '',
    size: st.size,
    mtime: opts.mtime ?? st.mtime.toISOString(),
    sha256: opts.hash ? createHash('sha256').update(readFileSync(path)).digest('hex') : '',
    stream: () => createReadStream(path),
    localPath: async () => path,
    sibling(name: string) {
      const other = posix.normalize(posix.join(posix.dirname(rel), name));
      // A sibling stays inside the home: `../` past its root would read the analyst's own files.
      if (other === '..' || other.startsWith('../') || posix.isAbsolute(name)) return undefined;
      try {
        return statSync(join(homeDir, ...other.split('/'))).isFile() ? artifactFromFile(homeDir, other, { ...opts, mtime: undefined }) : undefined;
      } catch {
        return undefined;
      }
    },
  };
  return a;
}
