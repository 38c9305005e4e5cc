import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentPlugin, type Artifact, makeRow, type Parser } from '@aitrail/parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { truncatedPrefix } from './prefix-keys.js';
import { makeCollectionDir } from './test-helpers/make-collection.js';

// The prefix rule through a whole analysis: a cut copy (tag truncated) matched to the full
// primary text it begins, within its session and tolerance.

const root = mkdtempSync(join(tmpdir(), 'aitrail-prefix-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function lines(a: Artifact): Promise<{ ts: string; sid: string; turn?: string; text: string; tag?: string }[]> {
  const chunks: Buffer[] = [];
  for await (const c of a.stream()) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
}

function parser(name: string, re: RegExp, extra: Partial<Parser>): Parser {
  return {
    agent: 'copy-agent',
    name,
    patterns: [re.source],
    wants: (rel) => re.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    async *parse(a) {
      let n = 0;
      for (const l of await lines(a)) yield makeRow((l.turn as 'user') ?? 'user', l.text, { timestamp_utc: l.ts, session_id: l.sid, source_line: ++n, ...(l.tag ? { tag: l.tag } : {}) });
    },
    ...extra,
  };
}

const chats = parser('chat', /^\.ca\/[^/]+\/[^/]+\.jsonl$/, {});
const store = parser('store', /^\.ca\/store\.jsonl$/, { secondary: () => true, secondaryToleranceSeconds: () => 3600 });
const plugin: AgentPlugin = { agent: 'copy-agent', parsers: [chats, store] };

const T = (s: number) => new Date(Date.UTC(2026, 9, 1, 9, 0, s)).toISOString();
const jl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const LONG = 'please refactor the date helpers so that every test in the suite uses one fixed clock, and explain why';

describe('truncated copies', async () => {
  const input = join(root, 'in');
  makeCollectionDir(input, [
    {
      agent: 'copy-agent',
      rel: '.ca/store.jsonl',
      content: jl([
        { ts: T(50), sid: 's1', text: `${LONG.slice(0, 40).trimEnd()}...`, tag: 'truncated' },
        { ts: T(50), sid: 's1', text: 'an unmatched prefix that no prompt begins wi...', tag: 'truncated' },
        { ts: T(50), sid: 's2', text: `${LONG.slice(0, 40).trimEnd()}...`, tag: 'truncated' },
        { ts: T(51), sid: 's1', turn: 'assistant', text: 'Done: one fixed clock[truncated]', tag: 'truncated' },
      ]),
    },
    { agent: 'copy-agent', rel: '.ca/new-ws/s1b.jsonl', content: jl([{ ts: T(45), sid: 's1', text: LONG }, { ts: T(46), sid: 's1', turn: 'assistant', text: 'Done: one fixed clock for every test.' }]) },
  ]);
  const out = join(root, 'out');
  await analyze({ inputs: [input], out, plugins: [plugin] });
  const read = (f: string) => readFileSync(join(out, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const timeline = read('timeline.jsonl') as (Record<string, string | number>)[];
  const dups = read('duplicates.jsonl') as { dropped: Record<string, string | number>; kept: Record<string, string | number> }[];
  const at = (r: Record<string, string | number>) => `${String(r.source_file).replace('homes/sean/', '')}#${r.source_line}`;

  it('drops a cut copy that the full text begins, within its session and tolerance, and keeps the others', () => {
    const cut = dups.filter((d) => String(d.dropped.source_file).includes('store'));
    expect(cut.map((d) => [at(d.dropped), at(d.kept)])).toEqual([
      ['.ca/store.jsonl#1', '.ca/new-ws/s1b.jsonl#1'],
      ['.ca/store.jsonl#4', '.ca/new-ws/s1b.jsonl#2'],
    ]);
    // No prompt begins with it; and the same prefix in session s2 has no full text there.
    expect(timeline.filter((r) => String(r.source_file).includes('store')).map(at)).toEqual(['.ca/store.jsonl#2', '.ca/store.jsonl#3']);
  });
});

describe('truncatedPrefix', () => {
  it('takes the text before one trailing marker', () => {
    expect(truncatedPrefix('fix the failing...')).toBe('fix the failing');
    expect(truncatedPrefix('fix the failing …')).toBe('fix the failing');
    expect(truncatedPrefix('{"a":"b[truncated]')).toBe('{"a":"b');
    expect(truncatedPrefix('abc...[truncated 4000 chars]')).toBe('abc');
  });
  it('gives nothing without a marker or without text before it', () => {
    expect(truncatedPrefix('no marker here')).toBeUndefined();
    expect(truncatedPrefix('...')).toBeUndefined();
    expect(truncatedPrefix('')).toBeUndefined();
  });
});
