import type { OpenCodeProfile } from '../opencode/profile.js';

/**
 * Kilo Code's CLI and new extension backend (`@kilocode/cli`, OpenCode's `packages/opencode` with
 * `kilocode_change` markers): OpenCode's stores under XDG folders named `kilo`; the database is
 * `kilo.db`, `kilo-<channel>.db`, or an older `opencode-<channel>.db` it falls back to. Its
 * parsers are named `cli-*`, beside the legacy extension's Cline-family parsers.
 */
export const KILO_CLI_PROFILE: OpenCodeProfile = {
  agent: 'kilo-code',
  parserPrefix: 'cli-',
  app: 'kilo',
  dbNames: '(?:kilo|opencode)(?:-[^/]+)?\\.db',
  configNames: ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectConfigNames: ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectDirs: ['.kilo', '.opencode'],
  // Kilo writes "Initializing snapshot…" parts and removes them again: no row for their copies.
  transientMetadata: [{ key: 'kilocode.lifecycle', value: 'transient' }],
};
