import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentPlugin, type Artifact, makeRow, type Parser } from '@aitrail/parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { truncatedPrefix } from './prefix-keys.js';
import { makeCollectionDir } from './test-helpers/make-collection.js';

// Two generic dedup rules through a whole analysis: two primary copies of one session
// (Parser.sessionCopyKey) and a cut copy matched to the full text it begins (tag truncated).

const root = mkdtempSync(join(tmpdir(), 'aitrail-copies-test-'));
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

// chats/<any folder>/<session>.jsonl: the file name is the session, whatever folder holds it.
const chats = parser('chat', /^\.ca\/[^/]+\/[^/]+\.jsonl$/, { sessionCopyKey: (rel) => rel.split('/').pop() });
const store = parser('store', /^\.ca\/store\.jsonl$/, { secondary: () => true, secondaryToleranceSeconds: () => 3600 });
const plugin: AgentPlugin = { agent: 'copy-agent', parsers: [chats, store] };

const T = (s: number) => new Date(Date.UTC(2026, 9, 1, 9, 0, s)).toISOString();
const jl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const LONG = 'please refactor the date helpers so that every test in the suite uses one fixed clock, and explain why';

describe('two primary copies of one session, and truncated copies', async () => {
  const input = join(root, 'in');
  makeCollectionDir(input, [
    // The old workspace's copy: written before the transition, never touched again.
    { agent: 'copy-agent', rel: '.ca/old-ws/s1.jsonl', content: jl([{ ts: T(1), sid: 's1', text: 'first prompt' }, { ts: T(2), sid: 's1', turn: 'assistant', text: 'first reply' }, { ts: T(3), sid: 's1', text: 'only in the old copy' }]), manifest: { mtime: '2026-10-01T09:00:05.000Z' } },
    // The new workspace's copy: the same lines, then the session went on.
    { agent: 'copy-agent', rel: '.ca/new-ws/s1.jsonl', content: jl([{ ts: T(1), sid: 's1', text: 'first prompt' }, { ts: T(2), sid: 's1', turn: 'assistant', text: 'first reply' }, { ts: T(40), sid: 's1', text: 'second prompt' }]), manifest: { mtime: '2026-10-01T09:01:00.000Z' } },
    // Another session: its own key, untouched by the rule.
    { agent: 'copy-agent', rel: '.ca/new-ws/s2.jsonl', content: jl([{ ts: T(1), sid: 's2', text: 'first prompt' }]), manifest: { mtime: '2026-10-01T09:00:01.000Z' } },
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

  it('keeps the newest copy whole and drops what the older copy repeats, each with its match', () => {
    expect(timeline.filter((r) => r.session_id === 's1' && String(r.source_file).includes('-ws/s1.jsonl')).map(at)).toEqual(['.ca/new-ws/s1.jsonl#1', '.ca/new-ws/s1.jsonl#2', '.ca/old-ws/s1.jsonl#3', '.ca/new-ws/s1.jsonl#3']);
    const copies = dups.filter((d) => String(d.dropped.source_file).includes('old-ws'));
    expect(copies.map((d) => [at(d.dropped), at(d.kept)])).toEqual([
      ['.ca/old-ws/s1.jsonl#1', '.ca/new-ws/s1.jsonl#1'],
      ['.ca/old-ws/s1.jsonl#2', '.ca/new-ws/s1.jsonl#2'],
    ]);
  });

  it('leaves another session with the same text alone', () => {
    expect(timeline.some((r) => at(r) === '.ca/new-ws/s2.jsonl#1')).toBe(true);
  });

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
