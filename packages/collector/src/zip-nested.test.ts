import { describe, expect, it } from 'vitest';
import { nestedRoot } from './zip-nested.js';

// Where a collection zipped again as a folder lies: one top folder holding both metadata members,
// and only when the zip's root holds neither.

describe('nestedRoot', () => {
  it.each([
    ['a collection at the root', ['collection.json', 'manifest.jsonl', 'homes/u/x'], undefined],
    ['one folder holding both', ['f/collection.json', 'f/manifest.jsonl', 'f/homes/u/x', '__MACOSX/f/._collection.json'], 'f/'],
    ['the folder without its manifest', ['f/collection.json', 'f/homes/u/x'], undefined],
    ['two such folders', ['a/collection.json', 'a/manifest.jsonl', 'b/collection.json', 'b/manifest.jsonl'], undefined],
    ['two folders down', ['a/b/collection.json', 'a/b/manifest.jsonl'], undefined],
    ['only a __MACOSX copy', ['__MACOSX/collection.json', '__MACOSX/manifest.jsonl'], undefined],
    ['a root manifest beside a folder', ['manifest.jsonl', 'f/collection.json', 'f/manifest.jsonl'], undefined],
  ])('%s', (_what, names, root) => {
    expect(nestedRoot(new Map(names.map((n) => [n, null])))).toBe(root);
  });
});
