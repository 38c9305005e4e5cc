import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { claudeCodePlugin } from './index.js';

// The catalog is the collector's; this checks it against the parsers and the spec from this side.
const FILE = fileURLToPath(new URL('../../../../collector/catalog/claude-code.yaml', import.meta.url));
const cat = parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
const list = (k: string) => (cat[k] ?? []) as string[];

// docs/catalog.md globs: `**` crosses directories, `*` does not; case-insensitive here (Windows/macOS homes).
function globRe(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}
const any = (globs: string[], rel: string) => globs.some((g) => globRe(g).test(rel));
const collected = (rel: string) => any(list('collect'), rel) && !any(list('exclude'), rel);

const S = '5e55a0a1-0000-4000-8000-000000000001';

describe('claude-code catalog', () => {
  it('agent id = file name = parser folder = plugin agent; only documented keys', () => {
    expect(cat.agent).toBe('claude-code');
    expect(claudeCodePlugin.agent).toBe('claude-code');
    expect(FILE.endsWith('/claude-code.yaml')).toBe(true);
    const documented = ['agent', 'name', 'version', 'references', 'env_homes', 'collect', 'exclude', 'secrets', 'collect_if', 'project', 'system', 'project_hints', 'session_files'];
    expect(Object.keys(cat).filter((k) => !documented.includes(k))).toEqual([]);
    expect(Object.keys(cat.project as object).sort()).toEqual(['collect', 'exclude', 'secrets']);
    expect(cat.env_homes).toContainEqual({ var: 'CLAUDE_CONFIG_DIR', rel: '.claude', separator: ',' });
  });

  it('collects every file a parser wants, in each config dir', () => {
    const rels = [
      `.claude/projects/-srv-proj/${S}.jsonl`,
      `.claude/projects/-srv-proj/${S}/subagents/agent-a0.jsonl`,
      `.claude/projects/-srv-proj/${S}/subagents/agent-a0.meta.json`,
      `.claude/projects/-srv-proj/${S}/tool-results/t.txt`,
      '.claude/projects/-srv-proj/sessions-index.json',
      '.claude/history.jsonl',
      `.claude/todos/${S}-agent-${S}.json`,
      '.claude/sessions/4242.json',
      '.claude/settings.json',
      '.claude/paste-cache/abcdef0123456789.txt',
      `.claude/file-history/${S}/0123456789abcdef@v1`,
      '.claude.json',
      '.claude-custom-oauth.json',
      '.claude.json.backup.1790845200000',
      '.claude-personal/history.jsonl',
      '.config/claude/projects/-x/s.jsonl',
      'Library/Caches/claude-cli-nodejs/-srv-proj/mcp-logs-github/x.txt',
      'AppData/Local/claude-cli-nodejs/Cache/-srv-proj/errors/x.txt',
      'AppData/Local/Temp/claude/-srv-proj/s/scratchpad/x',
    ];
    for (const rel of rels) expect(collected(rel), rel).toBe(true);
    for (const p of claudeCodePlugin.parsers) {
      for (const rel of rels) if (p.wants(rel) && !rel.startsWith('.claude/settings')) expect(collected(rel), rel).toBe(true);
    }
  });

  it('excludes plugin copies, the local npm tree, installer versions and worktrees', () => {
    for (const rel of ['.claude/plugins/cache/x/y.js', '.claude/plugins/repos/x', '.claude/plugins/marketplaces/m/x', '.claude/local/node_modules/a/b.js', '.local/share/claude/versions/2.1.332', '.cache/claude/staging/x', '.claude/worktrees/1/src/a.ts', '.claude-work/plugins/cache/x']) {
      expect(any(list('exclude'), rel), rel).toBe(true);
    }
    expect(collected('.claude/plugins/installed_plugins.json')).toBe(true);
  });

  it('flags credentials, global state, settings with env, IDE tokens, MCP files; not the transcripts', () => {
    for (const rel of ['.claude/.credentials.json', '.claude-personal/.credentials.json', '.config/claude/.credentials.json', '.claude.json', '.claude-custom-oauth.json', '.claude.json.backup', '.claude/.claude.json', '.claude/backups/.claude.json.backup.1', '.claude/settings.json', '.claude/settings.local.json', '.claude/ide/5123.lock', '.claude/sessions/4242.key', '.claude/.session_ingress_token', '.claude/hfi-auth.json', '.claude/.device-keys.json']) {
      expect(any(list('secrets'), rel), rel).toBe(true);
    }
    expect(any(list('secrets'), `.claude/projects/-srv-proj/${S}.jsonl`)).toBe(false);
    const project = cat.project as { collect: string[]; secrets: string[] };
    for (const rel of ['.mcp.json', '.claude/settings.json', '.claude/settings.local.json']) expect(any(project.secrets, rel), rel).toBe(true);
    for (const rel of ['CLAUDE.md', 'src/CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', '.claude/rules/a/b.md', '.claude/skills/x/SKILL.md', '.claude/commands/c.md', '.claude/agents/r.md', '.claude/hooks/pre.sh', '.worktreeinclude']) {
      expect(any(project.collect, rel), rel).toBe(true);
    }
  });

  it('project hints: transcript cwd, .claude.json projects keys, history project, process cwd', () => {
    const hints = cat.project_hints as { file: string; path?: string; keys_of?: string }[];
    const has = (rel: string, key: string) => hints.some((h) => globRe(h.file).test(rel) && (h.path ?? h.keys_of) === key);
    expect(has(`.claude/projects/-srv-proj/${S}.jsonl`, 'cwd')).toBe(true);
    expect(has('.claude.json', 'projects')).toBe(true);
    expect(has('.claude/history.jsonl', 'project')).toBe(true);
    expect(has('.claude/sessions/4242.json', 'cwd')).toBe(true);
  });
});
