import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { fakePlugin } from './test-helpers/fake-plugin.js';
import { type FakeFile, makeCollectionDir } from './test-helpers/make-collection.js';

const root = mkdtempSync(join(tmpdir(), 'aitrail-analyze-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `case-${n++}`);

const log = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const A = 'sess-a';
const baseFiles: FakeFile[] = [
  {
    agent: 'fake-agent',
    rel: `.fake/sessions/${A}.jsonl`,
    content: log([
      { cwd: '/srv/proj' },
      { ts: '2026-10-01T09:00:01.000Z', type: 'user', text: 'continue', model: 'm1' },
      { ts: '2026-10-01T09:00:02.000Z', type: 'assistant', text: 'done, "quoted", with, commas\nand a newline', model: 'm1' },
      { ts: '2026-10-01T09:00:03.000Z', type: 'tool_use', text: 'ls', tool: 'bash' },
      { ts: '2026-10-01T09:00:04.000Z', type: 'system', text: 'permission decision: approved source=x', tag: 'permission_decision' },
      { ts: '2026-10-01T09:00:05.000Z', type: 'system', text: '=cmd|calc', warn: 'odd line' },
    ]),
  },
  {
    agent: 'fake-agent',
    rel: '.fake/store.jsonl',
    content: log([
      { ts: '2026-10-01T09:00:30.000Z', session: A, type: 'user', text: 'continue' },
      { ts: '2026-10-01T08:00:00.000Z', session: 'sess-gone', type: 'user', text: 'only in the store' },
      { cwd: '/srv/gone', session: 'sess-gone' },
    ]),
  },
  { agent: 'fake-agent', rel: '.fake/history.json', content: JSON.stringify(['continue', '/model']) },
  { agent: 'fake-agent', rel: '.fake/secret.json', content: '{"token":"ghp_secret"}', secret: true },
  { agent: 'fake-agent', rel: '.fake/settings.json', content: '{"allowedUrls":["https://x"],"password":"hunter2"}', secret: true },
  { agent: 'other-agent', rel: '.fake/sessions/x.jsonl', content: log([{ ts: '2026-10-01T09:00:00.000Z', type: 'user', text: 'not for fake' }]) },
];

describe('analyze over an unpacked collection directory', async () => {
  const input = fresh();
  makeCollectionDir(input, baseFiles);
  const out = fresh();
  const res = await analyze({ inputs: [input], out, plugins: [fakePlugin] });
  const csv = readFileSync(join(out, 'timeline.csv'), 'utf8');
  const timeline = readFileSync(join(out, 'timeline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const sessions = readFileSync(join(out, 'sessions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const inventory = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
  const dups = readFileSync(join(out, 'duplicates.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

  it('orders rows by time, undated last, and fills project_path from the session facts', () => {
    // Same time: source order (archive path) breaks the tie, settings.json before store.jsonl.
    expect(timeline.map((r) => r.text)).toEqual(['setting file read: .fake/settings.json', 'only in the store', 'continue', 'done, "quoted", with, commas\nand a newline', 'ls', 'permission decision: approved source=x', '=cmd|calc', '/model']);
    expect(timeline[2]).toMatchObject({ host: 'testhost', user: 'sean', agent: 'fake-agent', session_id: A, project_path: '/srv/proj', source_file: `homes/sean/.fake/sessions/${A}.jsonl`, source_line: 2, tag: '' });
    expect(timeline[1].project_path).toBe('/srv/gone');
  });

  it('drops the store and history copies of the prompt, with the rows they matched', () => {
    expect(dups.map((d) => [d.dropped.source_file, d.kept.source_line])).toEqual([
      ['homes/sean/.fake/store.jsonl', 2],
      ['homes/sean/.fake/history.json', 2],
    ]);
    expect(res.duplicates).toBe(2);
  });

  it('writes RFC 4180 CSV with a BOM, CRLF and quoted fields, text unaltered', () => {
    expect(csv.startsWith('\uFEFFtimestamp_utc,host,user,agent,session_id,project_path,git_branch,model,turn_type,tool_name,tool_use_id,text,source_file,source_line\r\n')).toBe(true);
    expect(csv).toContain(',"done, ""quoted"", with, commas\nand a newline",');
    expect(csv).toContain(',=cmd|calc,');
    expect(csv.split('\r\n')).toHaveLength(timeline.length + 2);
  });

  it('builds one session record per session, flagging the one rebuilt from the store only', () => {
    expect(sessions.map((s) => s.session_id)).toEqual(['sess-gone', A]);
    expect(sessions[1]).toMatchObject({ project_path: '/srv/proj', counts: { user: 1, assistant: 1, tool_use: 1, system: 2 }, models: ['m1'], tools: ['bash'], permission_decisions: { approved: 1 }, synced: 'no', secondary_only: false });
    expect(sessions[1].sources).toEqual(['homes/sean/.fake/sessions/sess-a.jsonl', 'homes/sean/.fake/store.jsonl']);
    expect(sessions[0]).toMatchObject({ secondary_only: true, project_path: '/srv/gone', sources: ['homes/sean/.fake/store.jsonl'] });
  });

  it('lists secret files by path, size and hash only; only a parser that opts in reads one', () => {
    const agent = inventory.homes[0].agents.find((a: { agent: string }) => a.agent === 'fake-agent');
    expect(agent.secret_files).toEqual([
      { path: '/home/sean/.fake/secret.json', size: 22, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { path: '/home/sean/.fake/settings.json', size: 50, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(timeline.filter((r) => r.text.startsWith('setting file read')).map((r) => r.text)).toEqual(['setting file read: .fake/settings.json']);
    expect(JSON.stringify(timeline)).not.toContain('ghp_secret');
    expect(JSON.stringify(inventory)).not.toContain('ghp_secret');
  });

  it('records parse warnings with file and line, and the integrity result', () => {
    const agent = inventory.homes[0].agents.find((a: { agent: string }) => a.agent === 'fake-agent');
    expect(agent.parse_warnings).toEqual([{ file: 'homes/sean/.fake/sessions/sess-a.jsonl', line: 6, parser: 'fake-agent/log', message: 'odd line' }]);
    expect(inventory.collections[0].integrity).toMatchObject({ ok: true, checked: 6, mismatched: [], missing: [], extra: [] });
    expect(agent).toMatchObject({ sessions: 2, projects: ['/srv/gone', '/srv/proj'], artifacts: 5 });
  });

  it('does not hand a file to another agent\'s parser', () => {
    expect(timeline.some((r) => r.text === 'not for fake')).toBe(false);
  });
});

describe('integrity', () => {
  it('reports a corrupted, a missing and an extra member, parses only what is intact', async () => {
    const input = fresh();
    const files: FakeFile[] = [
      ...baseFiles.slice(0, 1),
      { agent: 'fake-agent', rel: '.fake/store.jsonl', content: log([{ ts: '2026-10-01T09:00:30.000Z', session: A, type: 'user', text: 'tampered' }]), manifest: { sha256: '0'.repeat(64) } },
      { agent: 'fake-agent', rel: '.fake/history.json', content: '[]', omit: true },
    ];
    makeCollectionDir(input, files, { extra: { 'homes/sean/.fake/planted.jsonl': 'x' } });
    const out = fresh();
    const warns: string[] = [];
    const res = await analyze({ inputs: [input], out, plugins: [fakePlugin] }, { warn: (m) => warns.push(m) });
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    const integ = inv.collections[0].integrity;
    expect(res.integrityOk).toBe(false);
    expect(integ.ok).toBe(false);
    expect(integ.mismatched.map((p: { archive_path: string }) => p.archive_path)).toEqual(['homes/sean/.fake/store.jsonl']);
    expect(integ.missing.map((p: { archive_path: string }) => p.archive_path)).toEqual(['homes/sean/.fake/history.json']);
    expect(integ.extra.map((p: { archive_path: string }) => p.archive_path)).toEqual(['homes/sean/.fake/planted.jsonl']);
    expect(readFileSync(join(out, 'timeline.jsonl'), 'utf8')).not.toContain('tampered');
    expect(warns.join('\n')).toMatch(/: mismatch homes\/sean\/\.fake\/store\.jsonl: expected .*not parsed/);
    expect(warns.join('\n')).toContain(': missing homes/sean/.fake/history.json: the manifest lists');
    const agent = inv.homes[0].agents[0];
    expect(agent.not_parsed.map((x: { file: string }) => x.file)).toEqual(['homes/sean/.fake/store.jsonl', 'homes/sean/.fake/history.json']);
  });

  it('--strict stops before writing any output', async () => {
    const input = fresh();
    makeCollectionDir(input, [{ ...baseFiles[0], manifest: { size: 3, bytes_read: 3 } }]);
    const out = fresh();
    await expect(analyze({ inputs: [input], out, strict: true, plugins: [fakePlugin] })).rejects.toThrow(/--strict: expected every member to match the manifest and every archive its sidecar, found 1/);
    expect(existsSync(join(out, 'timeline.csv'))).toBe(false);
  });
});

describe('robustness', () => {
  it('a parser that throws gives a warning and a system row, and the run goes on', async () => {
    const input = fresh();
    makeCollectionDir(input, [...baseFiles.slice(0, 1), { agent: 'fake-agent', rel: '.fake/boom.txt', content: 'x' }]);
    const out = fresh();
    await analyze({ inputs: [input], out, plugins: [fakePlugin] });
    const timeline = readFileSync(join(out, 'timeline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(timeline.find((r) => r.tag === 'parser_error')).toMatchObject({ turn_type: 'system', text: 'parser fake-agent/boom failed on homes/sean/.fake/boom.txt: synthetic parser bug', source_file: 'homes/sean/.fake/boom.txt' });
    expect(timeline.some((r) => r.text === 'before the crash')).toBe(true);
  });

  it('a manifest archive_path with .. or an absolute form is never read', async () => {
    const input = fresh();
    makeCollectionDir(input, [
      { agent: 'fake-agent', rel: '.fake/sessions/evil.jsonl', content: 'x', manifest: { archive_path: '../../outside/.fake/sessions/evil.jsonl' } },
      { agent: 'fake-agent', rel: '.fake/sessions/abs.jsonl', content: 'x', manifest: { archive_path: '/etc/passwd' } },
    ]);
    const out = fresh();
    const res = await analyze({ inputs: [input], out, plugins: [fakePlugin] });
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    const integ = inv.collections[0].integrity;
    expect(integ.unreadable.map((p: { problem: string }) => p.problem)).toEqual(['unsafe_path', 'unsafe_path']);
    expect(res.rows).toBe(0);
  });

  it('sibling() resolves beside the artifact, never to a secret or out of the home; localPath() materializes it', async () => {
    const input = fresh();
    makeCollectionDir(input, [...baseFiles, { agent: 'fake-agent', rel: `.fake/sessions/${A}.meta`, content: 'm' }]);
    const out = fresh();
    await analyze({ inputs: [input], out, plugins: [fakePlugin] });
    const timeline = readFileSync(join(out, 'timeline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(timeline.find((r) => r.text.startsWith('sibling:'))?.text).toBe(`sibling: .fake/sessions/${A}.jsonl local: true secret: hidden outside: hidden`);
    expect(timeline.find((r) => r.text === 'odd turn type')?.turn_type).toBe('system');
  });

  it('removes its private temp folder after a run and after a refused one', async () => {
    const tmpRoot = fresh();
    mkdirSync(tmpRoot);
    const input = fresh();
    makeCollectionDir(input, [...baseFiles, { agent: 'fake-agent', rel: `.fake/sessions/${A}.meta`, content: 'm' }]);
    await analyze({ inputs: [input], out: fresh(), plugins: [fakePlugin], tmpRoot });
    expect(readdirSync(tmpRoot)).toEqual([]);
    const bad = fresh();
    makeCollectionDir(bad, [{ ...baseFiles[0], manifest: { sha256: 'f'.repeat(64) } }]);
    await expect(analyze({ inputs: [bad], out: fresh(), plugins: [fakePlugin], strict: true, tmpRoot })).rejects.toThrow(/--strict/);
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('stops on an abort (Ctrl-C) with no output and no temp folder left', async () => {
    const tmpRoot = fresh();
    mkdirSync(tmpRoot);
    const input = fresh();
    makeCollectionDir(input, baseFiles);
    const out = fresh();
    const ac = new AbortController();
    const run = analyze({ inputs: [input], out, plugins: [fakePlugin], tmpRoot, signal: ac.signal }, { phase: (name) => name === 'parsing' && ac.abort(new Error('by SIGINT')) });
    await expect(run).rejects.toThrow(/^interrupted \(by SIGINT\)/);
    expect(readdirSync(tmpRoot)).toEqual([]);
    expect(existsSync(join(out, 'timeline.csv'))).toBe(false);
  });

  it('refuses an --out that is a file, saying what to do', async () => {
    const input = fresh();
    makeCollectionDir(input, baseFiles);
    const file = join(input, 'collection.json');
    await expect(analyze({ inputs: [input], out: file, plugins: [fakePlugin] })).rejects.toThrow(/expected --out to be a directory .* found a file at .*; choose another --out/);
  });

  it('classes a working directory inside the agent\'s own catalog root as a scratch directory', async () => {
    const input = fresh();
    makeCollectionDir(input, [
      { agent: 'fake-agent', rel: '.fake/sessions/s-scratch.jsonl', content: log([{ cwd: '/home/sean/.fake/tmp/pool' }, { ts: '2026-10-01T09:00:00.000Z', type: 'user', text: 'x' }]) },
      { agent: 'fake-agent', rel: '.fake/sessions/s-real.jsonl', content: log([{ cwd: '/srv/app' }, { ts: '2026-10-01T09:00:00.000Z', type: 'user', text: 'y' }]) },
    ]);
    const out = fresh();
    await analyze({ inputs: [input], out, plugins: [fakePlugin] });
    const agent = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')).homes[0].agents[0];
    expect([agent.projects, agent.scratch_directories]).toEqual([['/srv/app'], ['/home/sean/.fake/tmp/pool']]);
    const out2 = fresh();
    await analyze({ inputs: [input], out: out2, plugins: [fakePlugin], catalogRoots: new Map([['fake-agent', ['.elsewhere']]]) });
    expect(JSON.parse(readFileSync(join(out2, 'inventory.json'), 'utf8')).homes[0].agents[0].scratch_directories).toEqual([]);
  });

  it('merges many small runs in timeline order and keeps two inputs of one host apart', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ ts: new Date(Date.UTC(2026, 9, 1, 9, 0, 0, (i * 7919) % 500)).toISOString(), type: 'user', text: `p${i}` }));
    const a = fresh();
    const b = fresh();
    makeCollectionDir(a, [{ agent: 'fake-agent', rel: '.fake/sessions/s1.jsonl', content: log(rows) }]);
    makeCollectionDir(b, [{ agent: 'fake-agent', rel: '.fake/sessions/s1.jsonl', content: log(rows.slice(0, 10)) }]);
    const out = fresh();
    const warns: string[] = [];
    await analyze({ inputs: [a, b], out, plugins: [fakePlugin], runLimits: { memoryBytes: 1, fanIn: 3, chunkBytes: 512 } }, { warn: (m) => warns.push(m) });
    const timeline = readFileSync(join(out, 'timeline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(timeline).toHaveLength(510);
    const ts = timeline.map((r) => r.timestamp_utc);
    expect([...ts].sort()).toEqual(ts);
    expect(new Set(timeline.map((r) => r.host))).toEqual(new Set(['testhost', 'testhost#2']));
    expect(warns.join('\n')).toContain('host testhost is also the host of an earlier input');
  });
});
