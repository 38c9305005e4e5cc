import type { ManifestRow } from '@aitrail/collector';
import { describe, expect, it } from 'vitest';
import { InventoryBuilder } from './inventory.js';
import { type SessionFileGlobs, sessionFileMatcher } from './session-files.js';

const row = (agent: string, rel: string, over: Partial<ManifestRow> = {}): ManifestRow =>
  ({ user: 'dev', agent, rel, source_path: `/home/dev/${rel}`, archive_path: `homes/dev/${rel}`, home: '/home/dev', scope: 'home', kind: 'file', status: 'collected', secret: false, size: 4, bytes_read: 4, ...over }) as ManifestRow;

const globs = new Map<string, SessionFileGlobs>([
  ['windsurf', { home: ['.codeium/windsurf/cascade/*.pb'], project: [] }],
  ['codex-cli', { home: ['.codex/sessions/**/rollout-*.jsonl'], project: ['.codex/sessions/**/rollout-*.jsonl'] }],
]);

describe('sessionFileMatcher', () => {
  it('matches home rows against home globs and project rows against project globs, per agent', () => {
    const m = sessionFileMatcher(globs, 'linux');
    expect(m('windsurf', row('windsurf', '.codeium/windsurf/cascade/a1.pb'))).toBe(true);
    expect(m('windsurf', row('windsurf', '.codeium/windsurf/memories/a1.pb'))).toBe(false);
    // Another agent's globs never count for this one.
    expect(m('codex-cli', row('codex-cli', '.codeium/windsurf/cascade/a1.pb'))).toBe(false);
    expect(m('codex-cli', row('codex-cli', '.codex/sessions/2026/10/02/rollout-x.jsonl', { scope: 'project' }))).toBe(true);
    expect(m('unknown', row('unknown', '.codeium/windsurf/cascade/a1.pb'))).toBe(false);
  });

  it('never counts a system row (its rel is an absolute path)', () => {
    expect(sessionFileMatcher(globs, 'linux')('windsurf', row('windsurf', '.codeium/windsurf/cascade/a1.pb', { scope: 'system' }))).toBe(false);
  });

  it('folds case on Windows and macOS layouts only, as the collector matched', () => {
    const upper = row('windsurf', '.Codeium/Windsurf/Cascade/A1.pb');
    expect(sessionFileMatcher(globs, 'win32')('windsurf', upper)).toBe(true);
    expect(sessionFileMatcher(globs, 'darwin')('windsurf', upper)).toBe(true);
    expect(sessionFileMatcher(globs, 'linux')('windsurf', upper)).toBe(false);
  });

  it('is a constant no without globs', () => {
    expect(sessionFileMatcher(undefined, 'linux')('windsurf', row('windsurf', '.codeium/windsurf/cascade/a1.pb'))).toBe(false);
    expect(sessionFileMatcher(new Map(), 'linux')('windsurf', row('windsurf', '.codeium/windsurf/cascade/a1.pb'))).toBe(false);
  });
});

describe('InventoryBuilder session_files', () => {
  it('counts a session file collected, hashed or unreadable, not an excluded one nor a directory, under each claiming agent', () => {
    const inv = new InventoryBuilder();
    inv.addManifest(
      'h',
      [
        row('windsurf', '.codeium/windsurf/cascade/a1.pb'),
        row('windsurf', '.codeium/windsurf/cascade/a2.pb', { status: 'skipped_secret' }),
        row('windsurf', '.codeium/windsurf/cascade/a3.pb', { status: 'error' }),
        row('windsurf', '.codeium/windsurf/cascade/a4.pb', { status: 'skipped_excluded' }),
        row('windsurf', '.codeium/windsurf/cascade/dir.pb', { kind: 'dir' }),
        row('windsurf', '.codeium/windsurf/mcp_config.json', { secret: true }),
        row('codex-cli', '.codex/sessions/rollout-1.jsonl'),
      ],
      () => undefined,
      sessionFileMatcher(globs, 'linux'),
    );
    const agents = inv.finish([])[0].agents;
    const get = (a: string) => agents.find((x) => x.agent === a)!;
    expect(get('windsurf')).toMatchObject({ session_files: 3, sessions: 0, artifacts: 3 });
    expect(get('codex-cli').session_files).toBe(1);
  });

  it('is 0 when no matcher is given (a caller without catalogs)', () => {
    const inv = new InventoryBuilder();
    inv.addManifest('h', [row('windsurf', '.codeium/windsurf/cascade/a1.pb')], () => undefined);
    expect(inv.finish([])[0].agents[0].session_files).toBe(0);
  });
});
