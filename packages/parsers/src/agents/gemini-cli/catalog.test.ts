import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AgentPlugin } from '../../sdk/types.js';
import { qwenCodePlugin } from '../qwen-code/index.js';
import { geminiCliPlugin } from './index.js';

// Both catalogs of the family, checked from the parsers' side: what a parser wants is collected,
// what the spec excludes is not, every credential file is flagged, and a parser reads a flagged
// file only when it says it reads its non-credential fields.

const catalog = (agent: string) => parse(readFileSync(fileURLToPath(new URL(`../../../../collector/catalog/${agent}.yaml`, import.meta.url)), 'utf8')) as Record<string, unknown>;
const HOMES = fileURLToPath(new URL('../../../../../fixtures/homes/', import.meta.url));

// docs/catalog.md globs: `**` crosses directories, `*` does not; case-insensitive here (Windows/macOS homes).
function globRe(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}
const any = (globs: unknown, rel: string) => ((globs ?? []) as string[]).some((g) => globRe(g).test(rel));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}
const fixtureRels = ['gemini-spec', 'gemini-family'].flatMap((h) => files(join(HOMES, h)).map((f) => relative(join(HOMES, h), f).split('\\').join('/')));

const cases: [AgentPlugin, string, string[], string[]][] = [
  [
    geminiCliPlugin,
    '.gemini',
    ['.gemini/oauth_creds.json', '.gemini/gemini-credentials.json', '.gemini/mcp-oauth-tokens.json', '.gemini/mcp-oauth-tokens-v2.json', '.gemini/a2a-oauth-tokens.json', '.gemini/.env', '.gemini/google_accounts.json', '.gemini/settings.json', '.gemini/extensions/x/.env'],
    ['.gemini/tmp/bin/rg', '.gemini/bin/litert/x', '.gemini/whisper_models/base.bin', '.gemini/cli-browser-profile/Default/Cookies', '.gemini/extensions/x/node_modules/a/index.js', '.gemini/history/proj/.git/objects/ab/cdef'],
  ],
  [
    qwenCodePlugin,
    '.qwen',
    ['.qwen/oauth_creds.json', '.qwen/mcp-oauth-tokens.json', '.qwen/.env', '.qwen/google_accounts.json', '.qwen/settings.json'],
    ['.qwen/bin/rg', '.qwen/ide/1234.lock', '.qwen/history/h/.git/objects/ab/cd'],
  ],
];

for (const [plugin, dir, secrets, excluded] of cases) {
  const cat = catalog(plugin.agent);
  describe(`${plugin.agent} catalog`, () => {
    it('agent id = file name = plugin agent; only documented keys', () => {
      expect(cat.agent).toBe(plugin.agent);
      const documented = ['agent', 'name', 'version', 'references', 'env_homes', 'collect', 'exclude', 'secrets', 'collect_if', 'project', 'system', 'project_hints', 'session_files'];
      expect(Object.keys(cat).filter((k) => !documented.includes(k))).toEqual([]);
    });

    it('collects every fixture file a parser wants, and every file of the state directory but the exclusions', () => {
      const mine = fixtureRels.filter((r) => r.toLowerCase().startsWith(`${dir}/`));
      expect(mine.length).toBeGreaterThan(0);
      for (const rel of mine) {
        if (any(cat.exclude, rel)) continue;
        expect(any(cat.collect, rel) || any(cat.secrets, rel), rel).toBe(true);
      }
      for (const rel of excluded) expect(any(cat.exclude, rel), rel).toBe(true);
    });

    it('flags every credential store, and a parser reads a flagged file only when it says it reads its safe fields', () => {
      for (const rel of secrets) expect(any(cat.secrets, rel), rel).toBe(true);
      for (const rel of [...secrets, ...fixtureRels.filter((r) => any(cat.secrets, r))]) {
        for (const p of plugin.parsers.filter((x) => x.wants(rel))) expect(p.readsSecretFile?.(rel), `${p.name} wants the flagged ${rel}`).toBe(true);
      }
    });

    it('gives system, project and hint globs for the same stores', () => {
      expect(((cat.system ?? []) as string[]).length).toBe(3);
      const project = cat.project as Record<string, string[]>;
      expect(any(project.collect, `${dir}/settings.json`) && any(project.secrets, `${dir}/settings.json`) && any(project.secrets, '.env')).toBe(true);
      expect(((cat.project_hints ?? []) as object[]).length).toBeGreaterThan(0);
    });
  });
}
