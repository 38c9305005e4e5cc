// The YAML nesting check lives twice: in the parsers' SDK (sdk/yaml-guard.ts, before a parser
// hands a file to the YAML library) and in the collector (yaml-guard.ts, before a project hint
// is parsed on the live target), because neither package imports the other. This package
// imports both, so it checks here that they give one answer.
import { YAML_MAX_DEPTH as COLLECTOR_MAX, yamlTooDeep as collectorCheck } from '@aitrail/collector';
import { YAML_MAX_DEPTH as PARSERS_MAX, yamlTooDeep as parsersCheck } from '@aitrail/parsers';
import { describe, expect, it } from 'vitest';

describe('the two YAML nesting checks agree', () => {
  it('same bound, same answer on every case and on random texts of the characters they read', () => {
    expect(COLLECTOR_MAX).toBe(PARSERS_MAX);
    const chars = ['[', ']', '{', '}', '"', "'", '\\', '#', '-', '?', ' ', '\t', '\n', 'a', ':', ','];
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const texts = ['', '['.repeat(65), `${'- '.repeat(65)}x`, 'a: "[[[["'];
    for (let i = 0; i < 5000; i++) texts.push(Array.from({ length: 1 + rand(200) }, () => chars[rand(chars.length)]).join(''));
    for (const t of texts) for (const max of [1, 2, 4, PARSERS_MAX]) expect([t, max, collectorCheck(t, max)]).toEqual([t, max, parsersCheck(t, max)]);
  });
});
