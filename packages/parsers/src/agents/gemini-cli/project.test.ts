import { describe, expect, it } from 'vitest';
import { FamilyPaths } from './paths.js';
import { GEMINI_PROFILE } from './profile.js';
import { isAbsolutePath, projectHashOf, resolveProject, withAncestors } from './project.js';
import type { Home } from './test-helpers/memory.js';
import { memoryArtifact } from './test-helpers/memory.js';

// The project of a tmp/<id>/ directory: the slug's .project_root, or the known path whose sha256
// names the hash directory (the real Windows corpus: C:\Users\acodu\dev\dashboard_mictlan → 56cfacee…).

const paths = new FamilyPaths(GEMINI_PROFILE);
const resolve = (home: Home, rel: string, clues = { projectHash: '', paths: [] as string[] }) => resolveProject(memoryArtifact(home, rel), paths, clues);

describe('project paths and hashes', () => {
  it('hashes a root as getProjectHash does (verified on the real corpus and the spec fixture)', () => {
    expect(projectHashOf('C:\\Users\\acodu\\dev\\dashboard_mictlan')).toBe('56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b');
    expect(projectHashOf('C:\\Users\\acodu')).toBe('5c810163bbf1672be0705d5e99f5c2c4b780b54ca1bfab9870a98ac0812cb431');
    expect(projectHashOf('/srv/proj')).toBe('6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972');
  });

  it('lists a path and its ancestors in either separator', () => {
    expect(withAncestors('C:\\Users\\me\\dev')).toEqual(['C:\\Users\\me\\dev', 'C:\\Users\\me', 'C:\\Users', 'C:\\']);
    expect(withAncestors('/srv/proj/')).toEqual(['/srv/proj', '/srv', '/']);
    expect(withAncestors('C:/work/app')).toEqual(['C:/work/app', 'C:/work', 'C:/']);
    expect(['/x', 'C:\\x', 'C:/x', '\\\\srv\\share'].every(isAbsolutePath)).toBe(true);
    expect(['x', '~/x', 'C:x', ''].some(isAbsolutePath)).toBe(false);
  });
});

describe('resolveProject', () => {
  const ROOT = 'C:\\Users\\me\\dev\\shop';
  const hash = projectHashOf(ROOT);

  it('a slug directory: its .project_root', async () => {
    expect(await resolve({ '.gemini/tmp/shop/logs.json': '[]', '.gemini/tmp/shop/.project_root': '/srv/shop\n' }, '.gemini/tmp/shop/logs.json')).toBe('/srv/shop');
  });

  it('a slug directory on Windows: the lower-cased .project_root takes the case a trusted folder spells', async () => {
    const home = { '.gemini/tmp/shop/logs.json': '[]', '.gemini/tmp/shop/.project_root': ROOT.toLowerCase(), '.gemini/trustedFolders.json': JSON.stringify({ [ROOT]: 'TRUST_FOLDER' }) };
    expect(await resolve(home, '.gemini/tmp/shop/logs.json')).toBe(ROOT);
  });

  it('a slug directory whose chat names its projectHash: the candidate that hashes to it', async () => {
    const home = { '.gemini/tmp/shop/chats/s.jsonl': '', '.gemini/tmp/shop/.project_root': ROOT.toLowerCase() };
    expect(await resolve(home, '.gemini/tmp/shop/chats/s.jsonl', { projectHash: hash, paths: [`${ROOT}\\web\\index.js`] })).toBe(ROOT);
  });

  it('a hash directory: a trusted folder, a registered project or an ancestor of one', async () => {
    const home: Home = { [`.gemini/tmp/${hash}/logs.json`]: '[]', '.gemini/trustedFolders.json': JSON.stringify({ [`${ROOT}\\sub`]: 'TRUST_PARENT' }) };
    expect(await resolve(home, `.gemini/tmp/${hash}/logs.json`)).toBe(ROOT);
    const home2: Home = { [`.gemini/tmp/${hash}/logs.json`]: '[]', '.gemini/projects.json': JSON.stringify({ projects: { [ROOT]: 'shop' } }) };
    expect(await resolve(home2, `.gemini/tmp/${hash}/logs.json`)).toBe(ROOT);
  });

  it('a hash directory nothing names stays unresolved; a chat without a match falls back to its first workspace directory', async () => {
    const rel = `.gemini/tmp/${'0'.repeat(64)}/chats/s.json`;
    expect(await resolve({ [rel]: '{}' }, rel)).toBe('');
    expect(await resolve({ [rel]: '{}' }, rel, { projectHash: '', paths: ['/srv/other'] })).toBe('/srv/other');
  });

  it('survives registry files that are not what they should be', async () => {
    const home: Home = { [`.gemini/tmp/${hash}/logs.json`]: '[]', '.gemini/trustedFolders.json': '[1,2', '.gemini/projects.json': '"x"' };
    expect(await resolve(home, `.gemini/tmp/${hash}/logs.json`)).toBe('');
  });
});

describe('gemini-cli paths', () => {
  const wanted = (rel: string) => [paths.chat, paths.subChat, paths.logs, paths.shellHistory, paths.chatCheckpoint, paths.restoreCheckpoint, paths.settings, paths.trustedFolders, paths.policies, paths.accounts, paths.reflog].some((r) => r.test(rel));

  it('takes every store the spec lists, in slug and hash directories, any case (Windows, macOS)', () => {
    for (const rel of [
      '.gemini/tmp/proj/chats/session-2026-10-01T09-00-5e55a0a1.jsonl',
      `.gemini/tmp/${'a'.repeat(64)}/chats/session-2025-10-30T23-49-93c0da34.json`,
      '.gemini/tmp/proj/logs.json',
      '.gemini/tmp/proj/logs.json.invalid_json.1700000000000.bak',
      '.gemini/tmp/proj/shell_history',
      '.gemini/tmp/proj/checkpoint-my%20tag.json',
      '.gemini/tmp/proj/checkpoints/2025-06-22T10-00-00_000Z-a.js-replace.json',
      '.gemini/settings.json',
      'etc/gemini-cli/settings.json',
      'C:/ProgramData/gemini-cli/system-defaults.json',
      'Library/Application Support/GeminiCli/policies/admin.toml',
      '.gemini/trustedFolders.json',
      '.gemini/policies/auto-saved.toml',
      '.gemini/google_accounts.json',
      '.gemini/history/proj/.git/logs/HEAD',
      '.GEMINI/TMP/PROJ/LOGS.JSON',
    ]) {
      expect(wanted(rel), rel).toBe(true);
    }
  });

  it('leaves the rest: outputs, plans, activity logs, the shadow repository objects, credentials, another agent', () => {
    for (const rel of ['.gemini/tmp/proj/tool-outputs/session-x/a.txt', '.gemini/tmp/proj/logs/session-x.jsonl', '.gemini/tmp/proj/plans/p.md', '.gemini/history/proj/.git/objects/ab/cd', '.gemini/oauth_creds.json', '.gemini/projects.json', '.gemini/tmp/proj/.project_root', '.qwen/settings.json', '.gemini/tmp/proj/chats/a/b/c.json']) {
      expect(wanted(rel), rel).toBe(false);
    }
  });

  it('names the project directory, the parent of a subagent chat and the way back to the state directory', () => {
    expect(paths.projectDirName('.gemini/tmp/proj/chats/x.json')).toBe('proj');
    expect(paths.parentDir('.gemini/tmp/proj/chats/p-1/abc123.json')).toBe('p-1');
    expect(paths.parentDir('.gemini/tmp/proj/chats/session-1.json')).toBe('');
    expect(paths.toStateDir('.gemini/tmp/proj/chats/x.json')).toBe('../../../');
  });
});
