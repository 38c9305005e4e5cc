import { describe, expect, it } from 'vitest';
import { yamlLib } from './libs.js';
import { YAML_MAX_DEPTH, yamlTooDeep } from './yaml-guard.js';

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
