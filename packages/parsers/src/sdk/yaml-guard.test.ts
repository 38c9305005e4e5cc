import { describe, expect, it } from 'vitest';
import { yamlLib } from './libs.js';
import { parseYamlGuarded, YAML_MAX_CHARS, YAML_MAX_DEPTH, yamlTooDeep } from './yaml-guard.js';

describe('yamlTooDeep', () => {
  it.each([
    ['a flat workspace.yaml', 'id: abc\ncwd: /srv/x\nsummary: "fix [the] {bug}"\n', false],
    ['flow collections to the bound', `k: ${'['.repeat(YAML_MAX_DEPTH)}${']'.repeat(YAML_MAX_DEPTH)}\n`, false],
    ['flow collections past the bound', `k: ${'['.repeat(YAML_MAX_DEPTH + 1)}`, true],
    ['a megabyte of [', '['.repeat(1_000_000), true],
    ['a megabyte of {"a":', '{"a":'.repeat(200_000), true],
    ['brackets inside quoted scalars', `a: "${'['.repeat(100)}"\nb: '${'{'.repeat(100)}'\n`, false],
    ['brackets inside a comment', `a: 1 # ${'['.repeat(100)}\n`, false],
    ['block entries opened on one line past the bound', `${'- '.repeat(YAML_MAX_DEPTH + 1)}x\n`, true],
    ['complex keys opened on one line past the bound', `${'? '.repeat(YAML_MAX_DEPTH + 1)}x\n`, true],
    ['a list of many entries, one level', '- a\n'.repeat(10_000), false],
    ['closing brackets that open nothing', ']]]]}}}}', false],
  ])('%s', (_name, text, deep) => {
    expect(yamlTooDeep(text)).toBe(deep);
  });

  it('what it passes, the yaml package parses without running out of stack', () => {
    for (const text of [`k: ${'['.repeat(YAML_MAX_DEPTH)}${']'.repeat(YAML_MAX_DEPTH)}\n`, `${'- '.repeat(YAML_MAX_DEPTH)}x\n`]) {
      expect(yamlTooDeep(text)).toBe(false);
      expect(() => yamlLib().parse(text)).not.toThrow();
    }
  });
});

describe('parseYamlGuarded', () => {
  it('parses what yaml parses, with the options given', () => {
    expect(parseYamlGuarded('a: 1\nb: [x, y]\n')).toEqual({ a: 1, b: ['x', 'y'] });
    expect(() => parseYamlGuarded(`${'x: &a [1]\n'}${Array.from({ length: 200 }, (_, i) => `k${i}: *a`).join('\n')}`, { maxAliasCount: 100 })).toThrow();
  });

  it('throws the first error with its line, as a prettified one carries it', () => {
    let caught: unknown;
    try {
      parseYamlGuarded('a: 1\nb: 2\n  c: [\n');
    } catch (e) {
      caught = e;
    }
    expect((caught as { linePos?: { line: number }[] }).linePos?.[0]?.line).toBeGreaterThan(1);
  });

  it('refuses a text past the bound or nested too deep, and reads 250 KB of quotes (prettified errors took 39 s there)', () => {
    expect(() => parseYamlGuarded('a'.repeat(YAML_MAX_CHARS + 1))).toThrow(/over the 1048576 read/);
    expect(() => parseYamlGuarded('['.repeat(1000))).toThrow(/nested deeper than 64 levels/);
    expect(() => parseYamlGuarded('"'.repeat(250_000))).toThrow();
  });
});
