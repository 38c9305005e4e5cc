import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPlugins, PluginError, pluginSpecs, resolvePlugin, validatePlugin } from './plugins.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-plugins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const parser = (over: Record<string, unknown> = {}) => ({ agent: 'my-agent', name: 'log', patterns: ['x'], recordsSync: false, wants: () => true, secondary: () => false, secondaryToleranceSeconds: () => 0, parse: async function* () {}, ...over });

describe('plugin names', () => {
  it('takes --plugin flags then AITRAIL_PLUGINS, split on commas and the path delimiter, without repeats', () => {
    expect(pluginSpecs(['a', 'b'], `c,${['d', 'a'].join(delimiter)}`)).toEqual(['a', 'b', 'c', 'd']);
    expect(pluginSpecs(undefined, undefined)).toEqual([]);
  });

  it('resolves a package from node_modules upward of the working directory, through its exports', () => {
    const pkg = join(dir, 'node_modules', 'aitrail-plugin-x');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'aitrail-plugin-x', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } }));
    mkdirSync(join(dir, 'work', 'deep'), { recursive: true });
    expect(resolvePlugin('aitrail-plugin-x', join(dir, 'work', 'deep'))).toBe(join(pkg, 'dist', 'index.js'));
    expect(() => resolvePlugin('aitrail-plugin-none', join(dir, 'work'))).toThrow(PluginError);
    expect(() => resolvePlugin('./nowhere.js', dir)).toThrow(/found nothing at/);
  });
});

describe('plugin shape', () => {
  it('accepts an AgentPlugin', () => {
    const p = { agent: 'my-agent', parsers: [parser()], catalog: 'agent: my-agent\n' };
    expect(validatePlugin('p', p)).toBe(p);
  });

  it.each([
    [undefined, 'no default export'],
    [{ parsers: [] }, 'agent undefined'],
    [{ agent: 'My Agent', parsers: [] }, 'agent "My Agent"'],
    [{ agent: 'my-agent' }, 'no parsers array'],
    [{ agent: 'my-agent', parsers: [parser({ parse: undefined })] }, 'parsers[0] without a parse() function'],
    [{ agent: 'my-agent', parsers: [parser({ agent: 'other' })] }, 'parsers[0] (log) for agent "other", not the plugin\'s my-agent'],
    [{ agent: 'my-agent', parsers: [parser({ recordsSync: 'no' })] }, 'parsers[0] (log) without a boolean recordsSync'],
    [{ agent: 'my-agent', parsers: [], catalog: 3 }, 'a catalog that is not YAML text'],
  ])('refuses %j, saying what it found', (value, found) => {
    expect(() => validatePlugin('p', value)).toThrow(`found ${found}`);
  });

  it('loads a module file by path and refuses a parser name registered twice', async () => {
    const file = join(dir, 'plugin.mjs');
    writeFileSync(file, `export default { agent: 'my-agent', parsers: [{ agent: 'my-agent', name: 'log', patterns: [], recordsSync: false, wants: () => false, secondary: () => false, secondaryToleranceSeconds: () => 0, parse: async function* () {} }] };\n`);
    const loaded = await loadPlugins([file], dir);
    expect(loaded.map((l) => [l.spec, l.plugin.agent])).toEqual([[file, 'my-agent']]);
    const copy = join(dir, 'copy.mjs');
    writeFileSync(copy, `export { default } from ${JSON.stringify(file)};\n`);
    await expect(loadPlugins([file, copy], dir)).rejects.toThrow('found my-agent/log twice');
  });
});
