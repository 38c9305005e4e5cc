import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactJson, JSON_TEXT_MAX_DEPTH, jsonText, plainText } from './compact-json.js';

describe('compactJson', () => {
  it("prints the seed's approval example", () => {
    expect(compactJson({ kind: 'commands', commandIdentifiers: ['npm test'] })).toBe('{"commandIdentifiers":["npm test"],"kind":"commands"}');
  });

  it('sorts keys at every depth and prints no whitespace', () => {
    const v = { z: 1, a: { y: [{ d: 1, c: 2 }, 'x y'], b: null }, m: true };
    expect(compactJson(v)).toBe('{"a":{"b":null,"y":[{"c":2,"d":1},"x y"]},"m":true,"z":1}');
  });

  it('keeps UTF-8 as is (bullets, emoji, accents), escaping only what JSON must', () => {
    const v = { t: 'GitHub Copilot • Auto 🚀 café', q: 'say "hi"\n\u0001' };
    const s = compactJson(v);
    expect(s).toBe('{"q":"say \\"hi\\"\\n\\u0001","t":"GitHub Copilot • Auto 🚀 café"}');
    expect(JSON.parse(s)).toEqual(v);
  });

  it('prints 100,000 nested arrays and objects whole, without throwing', () => {
    const depth = 100_000;
    let arr: unknown = [];
    let obj: unknown = { leaf: 1 };
    for (let i = 0; i < depth; i++) {
      arr = [arr];
      obj = { a: obj };
    }
    expect(compactJson(arr)).toBe('['.repeat(depth + 1) + ']'.repeat(depth + 1));
    expect(compactJson(obj)).toBe('{"a":'.repeat(depth) + '{"leaf":1}' + '}'.repeat(depth));
  });

  it('sorts integer-like keys as strings, as the seed (Python sort_keys) does', () => {
    expect(compactJson({ a: 3, 2: 2, 10: 1 })).toBe('{"10":1,"2":2,"a":3}');
  });

  it('cuts past maxDepth when asked to', () => {
    expect(compactJson({ a: { b: { c: 1 } } }, 2)).toBe('{"a":{"b":"…(nested too deep)"}}');
  });

  it('never throws on a cycle', () => {
    const v: Record<string, unknown> = { x: 1 };
    v.self = v;
    expect(compactJson(v)).toBe('{"self":"…(circular)","x":1}');
  });

  it('prints what JSON.stringify prints for values it cannot print', () => {
    expect(compactJson({ u: undefined, f: () => 1, s: Symbol('x'), n: Number.NaN, i: Number.POSITIVE_INFINITY })).toBe('{"i":null,"n":null}');
    expect(compactJson([undefined, () => 1, new Array(1)[0], 3])).toBe('[null,null,null,3]');
    // biome-ignore lint/suspicious/noSparseArray: a hole must print as null, not as an empty slot
    expect(compactJson([1, , 3])).toBe('[1,null,3]');
    expect(compactJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
    expect(compactJson(undefined)).toBe('null');
    expect(compactJson(10n)).toBe('10');
  });

  it('equals JSON.stringify of the same value with keys sorted, for any JSON value', () => {
    const sortDeep = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sortDeep)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
            )
          : v;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // __proto__ keys survive JSON.parse but not Object.fromEntries' rebuilding; skip them.
        // Integer-like keys: Object.fromEntries would reorder them numerically; skip them too.
        fc.pre(!/"__proto__"|"\d+":/.test(JSON.stringify(v)));
        expect(compactJson(v)).toBe(JSON.stringify(sortDeep(v)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('jsonText', () => {
  it("is JSON.stringify's text (key order kept) for any value it can print", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonText(v)).toBe(JSON.stringify(v));
      }),
    );
    expect(jsonText(undefined)).toBe('');
    expect(jsonText({ z: 1, a: 2 })).toBe('{"z":1,"a":2}');
  });

  it('prints a value parsed from text nested 100,000 deep, cut at its depth bound, instead of throwing', () => {
    const depth = 100_000;
    const v = JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    const cut = JSON.stringify('…(nested too deep)');
    expect(jsonText(v)).toBe('['.repeat(JSON_TEXT_MAX_DEPTH) + cut + ']'.repeat(JSON_TEXT_MAX_DEPTH));
    const o = JSON.parse('{"k":'.repeat(depth) + '1' + '}'.repeat(depth)) as unknown;
    expect(jsonText(o)).toBe('{"k":'.repeat(JSON_TEXT_MAX_DEPTH) + cut + '}'.repeat(JSON_TEXT_MAX_DEPTH));
  });

  it('prints what JSON.stringify refuses (a cycle, a BigInt) rather than throwing', () => {
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = cyc;
    expect(jsonText(cyc)).toBe('{"a":1,"self":"…(circular)"}');
    expect(jsonText({ n: 12345678901234567890n })).toBe('{"n":12345678901234567890}');
  });
});

describe('plainText', () => {
  it("is String(value) for what String can print, an array's joined elements included, else jsonText", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        let plain: string | undefined;
        try {
          plain = String(v);
        } catch {
          // {"toString": false} parsed from JSON: String finds no primitive and throws.
        }
        expect(plainText(v)).toBe(plain ?? jsonText(v));
      }),
    );
    expect(plainText(JSON.parse('{"toString":false}'))).toBe('{"toString":false}');
    expect(plainText(JSON.parse('[{"valueOf":1,"toString":{}}]'))).toBe('[{"valueOf":1,"toString":{}}]');
  });

  it('gives the jsonText of an array nested 100,000 deep (whose toString overflows) instead of throwing', () => {
    const depth = 100_000;
    const v = JSON.parse('['.repeat(depth) + '1' + ']'.repeat(depth)) as unknown;
    expect(() => String(v)).toThrow(RangeError);
    expect(plainText(v)).toBe(jsonText(v));
    expect(plainText(v).startsWith('['.repeat(JSON_TEXT_MAX_DEPTH))).toBe(true);
  });
});
