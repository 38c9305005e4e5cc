// Shared by `npm test` and `npm run demo`: install from the lockfile and build, with only Node 20
// and npm on the machine. pnpm is fetched by npx at the pinned version.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('..', import.meta.url));

const PNPM = ['-y', 'pnpm@12.4.2'];

/** Environment for every child: quiet tools, and better-sqlite3 built against the local headers when they exist. */
export function childEnv() {
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', NO_UPDATE_NOTIFIER: '1' };
  // Where no prebuilt binary can be downloaded, better-sqlite3 builds from source against these headers.
  if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  return env;
}

/** Run a command in the root, inheriting output; returns its exit code. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: childEnv(), ...opts });
  if (r.error) {
    console.error(`aitrail setup: could not run ${cmd}: ${r.error.message}`);
    return 1;
  }
  return r.status ?? 1;
}

/** pnpm through npx at the pinned version (works where only Node and npm are installed). */
export function pnpm(args, opts) {
  return run('npx', [...PNPM, ...args], opts);
}

/** Install from the lockfile when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = `${root}node_modules/.modules.yaml`;
  const lock = `${root}pnpm-lock.yaml`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return 0;
  console.error('aitrail setup: installing dependencies from pnpm-lock.yaml (about a minute the first time)...');
  return pnpm(['install', '--frozen-lockfile', '--reporter=append-only']);
}

/** Build every package (turbo caches what did not change). */
export function build() {
  return pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
}
