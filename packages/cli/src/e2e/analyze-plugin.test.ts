import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, unwrapOclif } from './test-helpers/hostile-harness.js';

// The example plugin end to end: its catalog collects the example home, `--plugin` (or
// AITRAIL_PLUGINS) parses it; bad plugins are usage errors that say what to do.

const PLUGIN = join(REPO, 'fixtures/plugins/example-agent');
const HOME = join(REPO, 'fixtures/homes/example-agent');
const CATALOG = join(PLUGIN, 'catalog/example-agent.yaml');
type R = Record<string, unknown>;
const jsonl = (p: string): R[] => readJsonl<R>(p);

let T: string;
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-plugin-'));
  const c = await runCli(['collect', '--home', HOME, '--catalog', CATALOG, '--out', join(T, 'c.zip')]);
  expect(c.code, c.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail analyze --plugin with the example plugin', () => {
  it('parses the plugin agent\'s files: rows, dedup of the history copy, session, secret flagged', async () => {
    const out = join(T, 'out');
    const r = await runCli(['analyze', join(T, 'c.zip'), '--out', out, '--plugin', PLUGIN, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    const tl = jsonl(join(out, 'timeline.jsonl')).filter((x) => x.agent === 'example-agent');
    expect(tl.map((x) => [x.turn_type, x.text, x.session_id, x.project_path])).toEqual([
      ['user', 'add a README', 'ex-0001', '/work/demo'],
      ['tool_use', 'README.md', 'ex-0001', '/work/demo'],
      ['tool_result', 'wrote 12 lines', 'ex-0001', '/work/demo'],
      ['assistant', 'Added README.md.', 'ex-0001', '/work/demo'],
      // Undated rows last, in archive path order: history.txt before sessions/.
      ['user', 'show the diff', '', ''],
      ['system', expect.stringMatching(/^parser: unparseable line/), 'ex-0001', '/work/demo'],
    ]);
    const d = jsonl(join(out, 'duplicates.jsonl')) as { dropped: R; kept: R }[];
    expect(d.map((x) => [x.dropped.source_file, x.dropped.text, x.kept.source_file])).toEqual([
      ['homes/example-agent/.example-agent/history.txt', 'add a README', 'homes/example-agent/.example-agent/sessions/ex-0001.jsonl'],
    ]);
    const s = jsonl(join(out, 'sessions.jsonl'));
    expect(s).toEqual([expect.objectContaining({ agent: 'example-agent', session_id: 'ex-0001', project_path: '/work/demo', synced: 'unknown', tools: ['write_file'] })]);
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    const agent = inv.homes[0].agents.find((a: R) => a.agent === 'example-agent');
    expect(agent.secret_files).toEqual([{ path: join(HOME, '.example-agent/credentials.json'), size: 37, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(agent.projects).toEqual(['/work/demo']);
    expect(readFileSync(join(out, 'timeline.csv'), 'utf8')).not.toContain('example-not-a-real-token');
    expect(JSON.parse(r.stdout).summary).toEqual([expect.objectContaining({ agent: 'example-agent', sessions: 1, prompts: 2, tool_calls: 1 })]);
  });

  it('without the plugin the files are collected but no parser reads them', async () => {
    const out = join(T, 'noplugin');
    const r = await runCli(['analyze', join(T, 'c.zip'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'timeline.jsonl'), 'utf8')).toBe('');
  });

  it('AITRAIL_PLUGINS names the plugin too, and `aitrail parsers` lists it', async () => {
    const r = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'env')], { env: { AITRAIL_PLUGINS: PLUGIN } });
    expect(r.code, r.stderr).toBe(0);
    expect(jsonl(join(T, 'env', 'timeline.jsonl'))).toHaveLength(6);
    const p = await runCli(['parsers', '--json', '--plugin', PLUGIN]);
    expect(p.code, p.stderr).toBe(0);
    const list = JSON.parse(p.stdout) as R[];
    expect(list.filter((x) => x.agent === 'example-agent')).toEqual([
      { agent: 'example-agent', parser: 'session-log', source: PLUGIN, records_sync: false, patterns: ['.example-agent/sessions/<id>.jsonl'] },
      { agent: 'example-agent', parser: 'history', source: PLUGIN, records_sync: false, patterns: ['.example-agent/history.txt'] },
    ]);
    expect(list.some((x) => x.agent === 'copilot-cli' && x.source === 'built-in')).toBe(true);
  });

  it('collect --plugin collects with the plugin\'s catalog, like --catalog with its YAML', async () => {
    const z = join(T, 'via-plugin.zip');
    const c = await runCli(['collect', '--home', HOME, '--plugin', PLUGIN, '--out', z]);
    expect(c.code, c.stderr).toBe(0);
    const m = await manifestOf(z);
    expect(m.rows.filter((r) => r.agent === 'example-agent').map((r) => [r.rel, r.secret]).sort()).toEqual([
      ['.example-agent/credentials.json', true],
      ['.example-agent/history.txt', false],
      ['.example-agent/sessions/ex-0001.jsonl', false],
    ]);
  });

  it('a plugin that is not an AgentPlugin, or not found, is a usage error that says what to do', async () => {
    const bad = join(T, 'bad-plugin.mjs');
    writeFileSync(bad, 'export default { agent: "bad-agent", parsers: [{ name: "x" }] };\n');
    const r = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'bad'), '--plugin', bad]);
    expect(r.code).toBe(2);
    expect(unwrapOclif(r.stderr)).toContain(`plugin ${bad}: expected a default export that is an AgentPlugin {agent: string, parsers: Parser[], catalog?: string}, found parsers[0] without a wants() function`);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    const m = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'bad'), '--plugin', 'aitrail-plugin-does-not-exist']);
    expect(m.code).toBe(2);
    expect(unwrapOclif(m.stderr)).toContain('plugin aitrail-plugin-does-not-exist: expected an installed package');
  });
});
