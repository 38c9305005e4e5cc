import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asArray, asBool, asJsonish, asNumber, asObject, asString, isObject, pick, pickString } from './decode.js';

// The same session.start / tool.execution_complete data in the two encodings of the event log:
// native (seed 000) and stringified (seed 001: every value a string, nested JSON serialized).
const native = {
  sessionId: '5e55a0a1-0000-4000-8000-000000000001',
  version: 1,
  success: false,
  alreadyInUse: true,
  context: { cwd: '/srv/proj', gitRoot: '/srv/proj', branch: 'main' },
  paths: ['/srv/proj/a.js', '/srv/proj/b.js'],
  contextTier: null,
  duration: 12.5,
};
const stringified: Record<string, unknown> = {
  sessionId: '5e55a0a1-0000-4000-8000-000000000001',
  version: '1',
  success: 'false',
  alreadyInUse: 'true',
  context: '{"cwd":"/srv/proj","gitRoot":"/srv/proj","branch":"main"}',
  paths: '["/srv/proj/a.js","/srv/proj/b.js"]',
  contextTier: null, // seed 001: null stays JSON null in the stringified encoding
  duration: '12.5',
};

describe('decode: both encodings read the same', () => {
  for (const [name, data] of [
    ['native', native],
    ['stringified', stringified],
  ] as const) {
    it(`reads the ${name} encoding`, () => {
      expect(asString((data as Record<string, unknown>).sessionId)).toBe('5e55a0a1-0000-4000-8000-000000000001');
      expect(asNumber(data.version)).toBe(1);
      expect(asNumber(data.duration)).toBe(12.5);
      expect(asBool(data.success)).toBe(false);
      expect(asBool(data.alreadyInUse)).toBe(true);
      expect(asObject(data.context)).toEqual({ cwd: '/srv/proj', gitRoot: '/srv/proj', branch: 'main' });
      expect(pickString(data, 'context.cwd')).toBe('/srv/proj');
      expect(pickString(data, 'context.branch')).toBe('main');
      expect(asArray(data.paths)).toEqual(['/srv/proj/a.js', '/srv/proj/b.js']);
      expect(asJsonish(data.context)).toEqual(native.context);
      expect(asString(data.contextTier)).toBeUndefined();
    });
  }

  it('reads any data object the same after the stringified encoding of seed 001', () => {
    // Seed 001: scalars become strings, objects and arrays serialized JSON, null stays null.
    const stringify = (v: unknown) => (v === null ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));
    const data = fc.record({
      b: fc.boolean(),
      n: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((x) => x + 0),
      s: fc.string(),
      // Through JSON once, as a log holds them (this turns -0 into 0, as serializing would).
      o: fc.dictionary(fc.string(), fc.jsonValue()).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>),
      a: fc.array(fc.jsonValue()).map((a) => JSON.parse(JSON.stringify(a)) as unknown[]),
      z: fc.constant(null),
    });
    fc.assert(
      fc.property(data, (d) => {
        const s = Object.fromEntries(Object.entries(d).map(([k, v]) => [k, stringify(v)]));
        for (const enc of [d, s]) {
          expect(asBool(enc.b)).toBe(d.b);
          expect(asNumber(enc.n)).toBe(d.n);
          expect(asString(enc.s)).toBe(d.s);
          expect(asObject(enc.o)).toEqual(d.o);
          expect(asArray(enc.a)).toEqual(d.a);
          expect(asString(enc.z)).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a whole line in either encoding to the same values', () => {
    const line = (data: unknown) => ({ type: 'session.start', data });
    const read = (l: unknown) => ({
      cwd: pickString(l, 'data.context.cwd'),
      success: asBool(pick(l, 'data.success')),
      version: asNumber(pick(l, 'data.version')),
      paths: asArray(pick(l, 'data.paths')),
      tier: asString(pick(l, 'data.contextTier')),
    });
    expect(read(line(stringified))).toEqual(read(line(native)));
    // The whole data object may itself be serialized.
    expect(read(line(JSON.stringify(native)))).toEqual(read(line(native)));
  });
});

describe('decode: a prompt stays a string', () => {
  it("reads seed 001's escaped Windows cwd", () => {
    expect(pickString({ context: '{"cwd":"C:\\\\Users\\\\AB000725"}' }, 'context.cwd')).toBe('C:\\Users\\AB000725');
  });

  it('keeps prompts that read as JSON or booleans as the text they are', () => {
    for (const prompt of ['true', 'false', '{not json', '{"a":1}', '[1,2]', '42', 'null', '']) {
      expect(asString(prompt)).toBe(prompt);
      expect(pickString({ data: { content: prompt } }, 'data.content')).toBe(prompt);
    }
  });

  it('treats malformed serialized JSON as not an object or array, never throwing', () => {
    expect(asObject('{not json')).toBeUndefined();
    expect(asArray('[1,')).toBeUndefined();
    expect(asJsonish('{not json')).toBe('{not json');
    expect(asObject('[1]')).toBeUndefined();
    expect(asArray('{"a":1}')).toBeUndefined();
    expect(asObject('  {"a":1}')).toEqual({ a: 1 });
  });
});

describe('decode: typed readers refuse what they do not expect', () => {
  it('asBool takes only booleans and their exact strings', () => {
    expect([true, false, 'true', 'false', 'TRUE', 'yes', 1, 0, null, undefined, 'True'].map(asBool)).toEqual([
      true,
      false,
      true,
      false,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('asNumber takes finite numbers and decimal strings only', () => {
    expect([5, '5', ' 7 ', '-3.5', '1e3', 'NaN', 'Infinity', Number.NaN, '0x10', '', '5px', null, true].map(asNumber)).toEqual([
      5,
      5,
      7,
      -3.5,
      1000,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('asString prints numbers and booleans, refuses objects, arrays and null', () => {
    expect([1, 2.5, true, null, undefined, {}, []].map(asString)).toEqual(['1', '2.5', 'true', undefined, undefined, undefined, undefined]);
  });

  it('isObject is false for null and arrays', () => {
    expect([{}, null, [], 'x', 1].map(isObject)).toEqual([true, false, false, false, false]);
  });

  it('pick returns undefined through a missing key or a non-object', () => {
    expect(pick({ a: { b: 1 } }, 'a.c')).toBeUndefined();
    expect(pick({ a: 'plain' }, 'a.b')).toBeUndefined();
    expect(pick({ a: null }, 'a.b')).toBeUndefined();
    expect(pick({ a: '{"b":{"c":"deep"}}' }, 'a.b.c')).toBe('deep');
  });

  it('any JSON object reads the same natively and serialized', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (raw) => {
        const o = JSON.parse(JSON.stringify(raw));
        expect(asObject(JSON.stringify(o))).toEqual(asObject(o));
      }),
    );
  });
});
