import { describe, expect, it } from 'vitest';
import { checkCollectionInfo } from './collection-info.js';

const DEEP = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;

const good = {
  format: 'aitrail-collection',
  format_version: 1,
  host: 'h',
  os: { platform: 'linux', release: '6', arch: 'x64' },
  tool: { name: 'aitrail', version: '0.1.0' },
  catalog: [{ agent: 'copilot-cli', version: '1', sha256: 'ab' }],
  arguments: ['collect'],
  started_utc: '2026-01-01T00:00:00.000Z',
  ended_utc: '2026-01-01T00:00:01.000Z',
  counts: { files: 2 },
  complete: true,
  layout: 'linux',
  homes: [{ user: 'u', home: '/home/u' }],
  notes: ['n'],
  compression: { choice: 'fast', level: 1, chunk_bytes: 1048576, store_above: 0.9, stored_members: 0, deflated_members: 2 },
  imported_from: { collector: 'kape', said: { nested: [1, { two: 2 }] } },
  system_paths: false,
  a_field_of_a_later_version: { x: [1] },
};

describe('checkCollectionInfo', () => {
  it('keeps every field of a well-formed collection.json as it is, with no problem', () => {
    expect(checkCollectionInfo(good)).toEqual({ info: good, problems: [] });
  });

  // Each field given a value of another type, one at a time: left out, named in a problem.
  const wrong: [string, unknown, string][] = [
    ['host', DEEP, '"host" is an array (expected a string)'],
    ['format_version', '1', '"format_version" is a string (expected a number)'],
    ['os', { platform: DEEP }, '"os" is an object (expected an object of strings (platform, release, arch))'],
    ['tool', 'aitrail', '"tool" is a string (expected an object of strings (name, version))'],
    ['catalog', [{ agent: 1 }], '"catalog" is an array (expected a list of objects of strings (agent, version, sha256))'],
    ['arguments', [DEEP], '"arguments" is an array (expected a list of strings)'],
    ['counts', { files: '2' }, '"counts" is an object (expected an object of numbers)'],
    ['complete', 'true', '"complete" is a string (expected true or false)'],
    ['homes', [{ user: DEEP }], '"homes" is an array (expected a list of objects of strings (user, home))'],
    ['imported_from', { a: DEEP }, '"imported_from" is nested too deep (expected at most 32 levels)'],
    ['os', { platform: 'linux', release: '6', arch: 'x64', extra: DEEP }, '"os" is nested too deep (expected at most 32 levels)'],
    ['catalog', [{ agent: 'a', version: '1', sha256: 'ab', extra: DEEP }], '"catalog" is nested too deep (expected at most 32 levels)'],
    ['started_utc', null, '"started_utc" is null (expected a string)'],
    ['a_field_of_a_later_version', DEEP, '"a_field_of_a_later_version" is nested too deep (expected at most 32 levels)'],
  ];
  for (const [i, [field, value, problem]] of wrong.entries()) {
    it(`leaves out ${field} that is ${problem.split(' is ')[1].split(' (')[0]} (case ${i + 1})`, () => {
      const { info, problems } = checkCollectionInfo({ ...good, [field]: value });
      expect(problems).toEqual([`collection.json: ${problem}; left out`]);
      expect(field in info).toBe(false);
      expect(Object.keys(info)).toHaveLength(Object.keys(good).length - 1);
    });
  }

  it('says what it found when collection.json is not an object', () => {
    expect(checkCollectionInfo([1]).problems).toEqual(['collection.json: expected a JSON object, found an array']);
    expect(checkCollectionInfo(null).problems).toEqual(['collection.json: expected a JSON object, found null']);
  });
});
