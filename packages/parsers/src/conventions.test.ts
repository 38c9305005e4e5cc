// The conventions of docs/architecture.md ("Conventions"), checked on the tree as it is: every
// agent folder is tested, registered under its own name, cataloged and covered by a fixture home.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AgentPlugin } from './sdk/types.js';

const src = dirname(fileURLToPath(import.meta.url));
const repo = resolve(src, '../../..');
const agentsDir = join(src, 'agents');
const catalogDir = join(repo, 'packages/collector/catalog');
const homesDir = join(repo, 'fixtures/homes');

const agentFolders = existsSync(agentsDir)
  ? readdirSync(agentsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
  : [];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? [join(dir, d.name), ...walk(join(dir, d.name))] : [join(dir, d.name)]));
}

// Loaded inside the tests, so a registry that fails to import fails those tests, not the file.
async function plugins(): Promise<readonly AgentPlugin[]> {
  return (await import('./registry.js')).builtInPlugins;
}

// Agent ids named on the `Agents:` line of every fixture home's README.md.
function fixtureAgents(): Map<string, string[]> {
  const byAgent = new Map<string, string[]>();
  if (!existsSync(homesDir)) return byAgent;
  for (const home of readdirSync(homesDir)) {
    const readme = join(homesDir, home, 'README.md');
    if (!existsSync(readme)) continue;
    const line = /^Agents:\s*(.*)$/m.exec(readFileSync(readme, 'utf8'));
    for (const id of line?.[1].split(/[\s,]+/).filter(Boolean) ?? []) byAgent.set(id, [...(byAgent.get(id) ?? []), home]);
  }
  return byAgent;
}

describe('conventions: agent folders', () => {
  it('there is at least one agent folder', () => {
    expect(agentFolders.length, `expected folders under ${relative(repo, agentsDir)}, found none`).toBeGreaterThan(0);
  });

  for (const agent of agentFolders) {
    describe(agent, () => {
      const folder = join(agentsDir, agent);

      it('has at least one *.test.ts', () => {
        const tests = walk(folder).filter((f) => f.endsWith('.test.ts'));
        expect(tests.length, `expected a *.test.ts under ${relative(repo, folder)}, found none: add the parser's tests beside it`).toBeGreaterThan(0);
      });

      it('is registered in builtInPlugins under its own name, every parser with that agent id', async () => {
        const registered = (await plugins()).filter((p) => p.agent === agent);
        expect(registered.length, `expected one plugin with agent '${agent}' in src/registry.ts, found ${registered.length}: register the folder's plugin`).toBe(1);
        const parsers = registered[0].parsers;
        expect(parsers.length, `expected plugin '${agent}' to have parsers, found none`).toBeGreaterThan(0);
        for (const p of parsers) expect(p.agent, `parser '${p.name}' of plugin '${agent}' says agent '${p.agent}'`).toBe(agent);
        const names = parsers.map((p) => p.name);
        expect(new Set(names).size, `expected unique parser names in '${agent}', found ${names.join(', ')}`).toBe(names.length);
      });

      it('has a catalog file packages/collector/catalog/<agent>.yaml for the same agent', () => {
        const file = join(catalogDir, `${agent}.yaml`);
        expect(existsSync(file), `expected ${relative(repo, file)} to exist, found no such file: add the agent's catalog`).toBe(true);
        expect(readFileSync(file, 'utf8'), `expected ${relative(repo, file)} to say agent: ${agent}`).toMatch(new RegExp(`^agent:\\s*['"]?${agent}['"]?\\s*$`, 'm'));
      });

      it('is named on the Agents: line of some fixtures/homes/*/README.md', () => {
        const homes = fixtureAgents().get(agent) ?? [];
        expect(homes.length, `expected a fixture home under fixtures/homes/ whose README.md has a line 'Agents: ... ${agent} ...', found none`).toBeGreaterThan(0);
      });
    });
  }

  it('every registered plugin has a folder of its own name', async () => {
    const missing = (await plugins()).map((p) => p.agent).filter((a) => !agentFolders.includes(a));
    expect(missing, `expected a folder src/agents/<agent>/ for every registered plugin; missing for: ${missing.join(', ')}`).toEqual([]);
  });
});

// Every catalog is an agent the collection covers, parsed or not. A catalog-only agent (no
// folder under agents/: Windsurf's encrypted Cascade store, Amp and Letta whose threads may live
// only on their servers) is allowed, but it is held to the rest: a fixture home, a line in
// docs/catalog.md. packages/cli/src/e2e/all-agents.test.ts runs the CLI over one home composed
// from these fixture homes: `aitrail catalog` and `aitrail parsers` ("collected, not parsed")
// list it, and its inventory entry has its artifacts, bytes, secrets and session files.
describe('conventions: catalogs', () => {
  const catalogs = existsSync(catalogDir) ? readdirSync(catalogDir).filter((f) => f.endsWith('.yaml')).sort() : [];
  const catalogDoc = readFileSync(join(repo, 'docs/catalog.md'), 'utf8');

  it('there are catalogs', () => {
    expect(catalogs.length, `expected catalog files under ${relative(repo, catalogDir)}, found none`).toBeGreaterThan(0);
  });

  for (const file of catalogs) {
    const id = file.replace(/\.yaml$/, '');
    describe(`${id}${agentFolders.includes(id) ? '' : ' (catalog only)'}`, () => {
      it('says agent: <its file name>', () => {
        expect(readFileSync(join(catalogDir, file), 'utf8'), `expected ${file} to say agent: ${id}`).toMatch(new RegExp(`^agent:\\s*['"]?${id}['"]?\\s*$`, 'm'));
      });

      it('is named on the Agents: line of some fixtures/homes/*/README.md', () => {
        const homes = fixtureAgents().get(id) ?? [];
        expect(homes.length, `expected a fixture home under fixtures/homes/ whose README.md has a line 'Agents: ... ${id} ...', found none: lay one out from the agent's spec`).toBeGreaterThan(0);
      });

      it('has its line in docs/catalog.md ("Agents")', () => {
        expect(catalogDoc, `expected docs/catalog.md to list \`${id}\` in its "Agents" table`).toMatch(new RegExp(`^\\| \`${id}\` \\|`, 'm'));
      });
    });
  }
});

describe('conventions: files under packages/parsers/src', () => {
  const files = walk(src);
  const code = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && statSync(f).isFile());
  const kebab = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/;

  it('names files and folders in kebab-case', () => {
    const bad = files.map((f) => relative(src, f)).filter((r) => !kebab.test(basename(r)));
    expect(bad, `expected kebab-case names (line-reader.ts), found: ${bad.join(', ')}`).toEqual([]);
  });

  it('imports no other aitrail package and nothing outside packages/parsers (it is published alone)', () => {
    const sample = "import { x } from '../../../collector/src/index.js';\nimport type { Y } from '@aitrail/analyzer';\nimport { z } from './sdk/row.js';\nawait import('@aitrail/collector');\n";
    expect(foreignImports(join(src, 'registry.ts'), sample)).toEqual(['../../../collector/src/index.js', '@aitrail/analyzer', '@aitrail/collector']);
    const bad = code.flatMap((f) => foreignImports(f, readFileSync(f, 'utf8')).map((t) => `${relative(src, f)} imports ${t}`));
    expect(bad, `expected @aitrail/parsers to depend on no other package of ours; found: ${bad.join(', ')}`).toEqual([]);
  });

  it('loads the config-file and zstd libraries through sdk/libs.ts only, when first used (thread start-up)', () => {
    const eager = /^import\s+(?!type\b)[^;]*?from\s+'(?:yaml|jsonc-parser|smol-toml|fzstd)'/m;
    expect(eager.test("import type { Node } from 'jsonc-parser';\n")).toBe(false);
    expect(eager.test("import { x } from './a.js';\nimport {\n  parse,\n} from 'yaml';\n")).toBe(true);
    const bad = code.filter((f) => !f.includes('/test-helpers/') && eager.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
    expect(bad, `expected yamlLib() / jsoncLib() / tomlLib() / zstdLib() from sdk/libs.ts, found a static import in: ${bad.join(', ')}`).toEqual([]);
  });

  it('prints values read from evidence with jsonText, not JSON.stringify (a value nested thousands deep overflows it)', () => {
    const agents = join(src, 'agents');
    const bad = code.filter((f) => f.startsWith(agents) && !f.includes('/test-helpers/') && /\bJSON\.stringify\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
    expect(bad, `expected jsonText() from sdk/compact-json.ts (deep-values.test.ts shows why), found JSON.stringify in: ${bad.join(', ')}`).toEqual([]);
  });

  it('appends lists with pushAll, not push(...spread): past ~130,000 items a spread call throws', () => {
    const spread = /\.push\(\.\.\./;
    expect(spread.test('rows.push(...more);')).toBe(true);
    expect(spread.test('pushAll(rows, more);')).toBe(false);
    const bad = code.filter((f) => !f.endsWith('push-all.ts') && spread.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
    expect(bad, `expected pushAll (sdk/push-all.ts) for appending lists; found push(... in ${bad.join(', ')}`).toEqual([]);
  });

  it('uses named exports only', () => {
    const bad = code.filter((f) => /^export\s+default\b/m.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
    expect(bad, `expected named exports, found export default in: ${bad.join(', ')}`).toEqual([]);
  });

  it('gives every exported symbol a TSDoc comment', () => {
    const sample = '/** Documented. */\nexport const a = 1;\n\nexport function b() {}\n// a comment, not TSDoc\nexport type C = 1;\n';
    expect(undocumented(sample)).toEqual(['4 b', '6 C']);
    const bad = code.flatMap((f) => undocumented(readFileSync(f, 'utf8')).map((at) => `${relative(src, f)}:${at}`));
    expect(bad, `expected a /** ... */ line above every exported symbol, found none above: ${bad.join(', ')}`).toEqual([]);
  });
});

// `<line> <name>` of every exported declaration with no /** */ comment right above it.
function undocumented(text: string): string[] {
  const decl = /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/;
  const lines = text.split('\n');
  const bad: string[] = [];
  lines.forEach((l, i) => {
    const m = decl.exec(l);
    if (!m) return;
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j -= 1;
    const prev = j >= 0 ? lines[j].trim() : '';
    // An overload signature's doc sits on the first signature.
    const overload = new RegExp(`^export\\s+(?:async\\s+)?function\\*?\\s+${m[1]}\\b`).test(prev);
    if (!prev.endsWith('*/') && !overload) bad.push(`${i + 1} ${m[1]}`);
  });
  return bad;
}

// Import specifiers in `text` (the file `file`) that reach another aitrail package or leave src/.
function foreignImports(file: string, text: string): string[] {
  const spec = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
  return [...text.matchAll(spec)]
    .map((m) => m[1])
    .filter((t) => (t.startsWith('@aitrail/') && t !== '@aitrail/parsers') || (t.startsWith('.') && relative(src, resolve(dirname(file), t)).startsWith('..')));
}
