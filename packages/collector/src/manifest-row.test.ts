import { describe, expect, it } from 'vitest';
import { misfitField } from './manifest-row.js';

const DEEP = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;

const row = {
  user: 'u',
  home: '/home/u',
  agent: 'claude-code',
  agents: ['claude-code', 'cline'],
  scope: 'home',
  rel: '.claude/history.jsonl',
  source_path: '/home/u/.claude/history.jsonl',
  archive_path: 'homes/u/.claude/history.jsonl',
  status: 'collected',
  reason: '',
  secret: false,
  kind: 'file',
  size: 10,
  bytes_read: 10,
  sha256: 'ab',
  mtime: '2026-01-01T00:00:00.000Z',
  atime: '',
  ctime: '',
  birthtime: '',
  mode: '0644',
  imported: { collector: 'kape', member: 'x', hashes: {}, recorded: {}, from: [] },
};

describe('misfitField', () => {
  it('passes a collector-written row, a skipped one (size null) and an older one (fields absent)', () => {
    expect(misfitField(row)).toBeUndefined();
    expect(misfitField({ ...row, size: null, bytes_read: null, files: 3, bytes: 0, project_root: '/p', link_target: '/t' })).toBeUndefined();
    expect(misfitField({ user: 'u', rel: 'r', archive_path: 'a', status: 'collected' })).toBeUndefined();
  });

  const wrong: [string, unknown, string][] = [
    ['user', DEEP, '"user" as an array (expected a string)'],
    ['sha256', DEEP, '"sha256" as an array (expected a string)'],
    ['agent', { a: 1 }, '"agent" as an object (expected a string)'],
    ['secret', 'yes', '"secret" as a string (expected true or false)'],
    ['size', -1, '"size" as a number (expected a count or null)'],
    ['bytes_read', '10', '"bytes_read" as a string (expected a count or null)'],
    ['files', null, '"files" as null (expected a count)'],
    ['agents', ['a', 1], '"agents" as an array (expected a list of strings)'],
    ['imported', [DEEP], '"imported" as an array (expected an object nested at most 32 levels)'],
    ['imported', { collector: 'kape', recorded: { mtime: DEEP } }, '"imported" as an object (expected an object nested at most 32 levels)'],
  ];
  for (const [i, [field, value, found]] of wrong.entries()) {
    it(`names ${field} of the wrong type (case ${i + 1})`, () => {
      expect(misfitField({ ...row, [field]: value })).toBe(found);
    });
  }
});
