import { describe, expect, it } from 'vitest';
import { badSegment, isoFromMs, isoTime, pathKey, percentDecode, targetPath } from './paths.js';

describe('targetPath', () => {
  it.each([
    ['C:\\Users\\sean\\.claude\\history.jsonl', 'C:/Users/sean/.claude/history.jsonl'],
    ['\\\\?\\C:\\Users\\sean', 'C:/Users/sean'],
    ['\\\\.\\c:\\Users\\sean\\', 'C:/Users/sean'],
    ['C:/Users//sean/./x', 'C:/Users/sean/x'],
    ['/home/sean/.copilot/', '/home/sean/.copilot'],
    ['/', '/'],
  ])('%s is %s', (recorded, want) => expect(targetPath(recorded)).toBe(want));

  it.each([['\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Users\\x'], ['relative\\path'], ['\\\\server\\share\\x'], ['']])('%s has no target path', (recorded) => {
    expect(targetPath(recorded)).toBeUndefined();
  });

  it('folds case only where the target ignores it', () => {
    expect(pathKey('C:/Users/Sean', true)).toBe('c:/users/sean');
    expect(pathKey('/home/Sean', false)).toBe('/home/Sean');
  });
});

describe('percentDecode (Velociraptor member names)', () => {
  it.each([
    ['%2Eclaude', '.claude'],
    ['C%3A', 'C:'],
    ['%5C%5C.%5CC%3A', '\\\\.\\C:'],
    ['%2e%2Ecopilot', '..copilot'],
    ['%E4%BD%A0%E5%A5%BD', '你好'],
    ['100%', '100%'],
    ['a%zz%4', 'a%zz%4'],
    ['plain name.txt', 'plain name.txt'],
    ['%FF', '\\xff'],
  ])('%s is %s', (stored, want) => expect(percentDecode(stored)).toBe(want));
});

describe('badSegment', () => {
  it('refuses names that would leave their folder', () => {
    expect(badSegment('..')).toBeDefined();
    expect(badSegment('.')).toBeDefined();
    expect(badSegment('')).toBeDefined();
    expect(badSegment('a/b')).toBeDefined();
    expect(badSegment('a\0b')).toBeDefined();
    expect(badSegment('.claude')).toBeUndefined();
  });
});

describe('isoTime', () => {
  it.each([
    ['2024-01-02T03:04:05.123456789Z', '2024-01-02T03:04:05.123Z'],
    ['2024-01-02T03:04:05.123456789+02:00', '2024-01-02T01:04:05.123Z'],
    ['2024-01-02 03:04:05.1234567', '2024-01-02T03:04:05.123Z'],
    ['04/05/2019 17:40:40', '2019-04-05T17:40:40.000Z'],
    ['4/5/2019 5:40:40 PM', '2019-04-05T17:40:40.000Z'],
    ['4/5/2019 12:10:00 AM', '2019-04-05T00:10:00.000Z'],
    ['1700000000', '2023-11-14T22:13:20.000Z'],
    ['1700000000.5', '2023-11-14T22:13:20.500Z'],
    [1700000000000, '2023-11-14T22:13:20.000Z'],
  ])('%s is %s', (v, want) => expect(isoTime(v)).toBe(want));

  // Past what a Date holds (±8.64e15 ms), where toISOString throws: no time, never a throw.
  it.each([['0001-01-01T00:00:00Z'], ['0'], [''], ['not a date'], [null], [0], [1e30], [Number.MAX_VALUE], ['1e300'], ['99999999999999999999'], [Number.POSITIVE_INFINITY]])('%s is no time', (v) => expect(isoTime(v)).toBeUndefined());
});

describe('isoFromMs', () => {
  it('is toISOString within the range a Date holds, and undefined past it', () => {
    expect(isoFromMs(8.64e15)).toBe('+275760-09-13T00:00:00.000Z');
    expect(isoFromMs(-8.64e15)).toBe('-271821-04-20T00:00:00.000Z');
    expect(isoFromMs(0)).toBe('1970-01-01T00:00:00.000Z');
    for (const ms of [8.64e15 + 1, -8.64e15 - 1, 1e300, Number.NaN, Number.NEGATIVE_INFINITY]) expect(isoFromMs(ms)).toBeUndefined();
  });
});

