import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from './archive-reader.js';
import { loadCatalogs } from './catalog.js';
import { classifyRel, type Disposition } from './classify.js';
import { collect } from './collect.js';

// The codex-cli catalog's editor anchor (the IDE extension's globalStorage/openai.chatgpt in
// every VS Code-family editor) and its config.toml [projects] hint (issue 13's leftovers).

const codex = loadCatalogs().find((c) => c.agent === 'codex-cli')!;
const EXT = 'User/globalStorage/openai.chatgpt/state.json';

// The extension's storage wherever a VS Code-family editor keeps its data folder.
const HOME: [string, Disposition][] = [
  [`.config/Code/${EXT}`, 'collect'],
  [`.config/Code - Insiders/${EXT}`, 'collect'],
  [`.config/VSCodium/${EXT}`, 'collect'],
  [`.config/Cursor/${EXT}`, 'collect'],
  [`.config/Windsurf/${EXT}`, 'collect'],
  [`.config/Kiro/${EXT}`, 'collect'],
  [`Library/Application Support/Code/${EXT}`, 'collect'],
  [`Library/Application Support/Cursor/${EXT}`, 'collect'],
  [`AppData/Roaming/Code/${EXT}`, 'collect'],
  [`AppData/Roaming/Windsurf/${EXT}`, 'collect'],
  [`.vscode-server/data/${EXT}`, 'collect'],
  [`.cursor-server/data/${EXT}`, 'collect'],
  [`.var/app/com.visualstudio.code/config/Code/${EXT}`, 'collect'],
  // Another extension's storage, and the editor's own files, are not codex's.
  ['.config/Code/User/globalStorage/github.copilot-chat/x.json', 'none'],
  ['.config/Code/User/settings.json', 'none'],
  ['.codex/config.toml', 'secret'],
  ['.codex/sessions/2026/10/01/rollout-2026-10-01T11-00-00-019a0000-0000-7000-8000-000000000001.jsonl', 'collect'],
];

describe('codex-cli catalog: the IDE extension in every VS Code-family editor', () => {
  it.each(HOME)('home %s → %s', (rel, want) => {
    expect(classifyRel(codex, rel, false)).toBe(want);
  });
  it('writes the extension once, on the anchor, not per editor', () => {
    // Once for the default profile and once for every named profile, each on the anchor.
    expect(codex.written.collect.filter((g) => g.includes('openai.chatgpt'))).toEqual(['@vscode-family/User/globalStorage/openai.chatgpt/**', '@vscode-family/User/profiles/*/globalStorage/openai.chatgpt/**']);
  });
});

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tree(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

describe('codex-cli catalog: config.toml [projects] as project hints', () => {
  it('collects the files of a trusted project that no rollout names, beside the rollout’s own', async () => {
    const base = mkdtempSync(join(tmpdir(), 'aitrail-codex-hints-'));
    made.push(base);
    const home = join(base, 'ann');
    const trusted = join(base, 'trusted-only');
    const worked = join(base, 'worked');
    const rollout = JSON.stringify({ timestamp: '2026-10-01T09:00:00.000Z', type: 'session_meta', payload: { id: 'x', cwd: worked } });
    tree(home, {
      '.codex/config.toml': `model = "gpt-5.5"\n\n[projects."${trusted}"]\ntrust_level = "trusted"\n\n[projects."${join(base, 'gone')}"]\ntrust_level = "untrusted"\n`,
      '.codex/sessions/2026/10/01/rollout-2026-10-01T09-00-00-019a0000-0000-7000-8000-000000000009.jsonl': `${rollout}\n`,
    });
    tree(trusted, { 'AGENTS.md': 'trusted', '.codex/rules/default.rules': 'prefix_rule(pattern=["ls"], decision="allow")' });
    tree(worked, { 'AGENTS.md': 'worked' });
    const s = await collect({ homes: [home], out: join(base, 'c.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: [codex], platform: 'linux', currentHome: '/x' });
    const r = await openArchive(s.out!);
    const { manifest, problems } = await readCollection(r);
    r.close();
    expect(problems).toEqual([]);
    const project = manifest.filter((m) => m.scope === 'project' && m.status === 'collected').map((m) => m.source_path);
    expect(project.sort()).toEqual([join(trusted, '.codex/rules/default.rules'), join(trusted, 'AGENTS.md'), join(worked, 'AGENTS.md')].sort());
    // The untrusted project no longer on disk is an outcome, not a failure.
    expect(s.projects.map((p) => p.root).sort()).toEqual([join(base, 'gone'), trusted, worked].sort());
  });
});
