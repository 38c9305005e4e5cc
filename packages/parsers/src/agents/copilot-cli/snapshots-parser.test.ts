import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copilotSnapshotsParser, snapshotText } from './snapshots-parser.js';
import { CORPUS_ROOT, parseText } from './test-helpers/harness.js';

const SID = '5e55a0a1-0000-4000-8000-000000000001';
const REL = `.copilot/session-state/${SID}/rewind-file-snapshots/index.json`;
const OLD_REL = `.copilot/session-state/${SID}/rewind-snapshots/index.json`;
const CORPUS = `${CORPUS_ROOT}/XEFF09__dotfiles/.copilot/session-state`;
const SEED =
  '{"schema":1,"snapshots":[{"snapshotId":"9d9d9d9d-0000-4000-8000-000000000001","eventId":"e0000000-0000-4000-8000-000000000004","timestamp":"2026-10-01T09:00:01.150Z","userMessage":"fix the failing test","fileCount":1,"linesAdded":1,"linesRemoved":1,"backupFiles":[],"files":{"a1a1a1a1a1a1a1a1":{"path":"/srv/proj/date.test.js","linesAdded":1,"linesRemoved":1,"preimage":null,"postimage":null}}}]}';

describe('rewind-file-snapshots/index.json parser', () => {
  it('gives the prompt as a user row and the files as a rewind snapshot row, at the snapshot time', async () => {
    const { rows } = await parseText(copilotSnapshotsParser, REL, SEED);
    const fields = { session_id: SID, project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', timestamp_utc: '2026-10-01T09:00:01.150Z', source_line: 1 };
    expect(rows).toEqual([
      { ...fields, turn_type: 'user', text: 'fix the failing test' },
      { ...fields, turn_type: 'system', text: 'rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js', tag: 'rewind_snapshot' },
    ]);
  });

  it('joins several paths with ", " in the files object order; no paths, no colon', () => {
    const s = { fileCount: 2, linesAdded: 5, linesRemoved: 0, files: { b: { path: '/z.js' }, a: { path: '/a.js' } } };
    expect(snapshotText(s)).toBe('rewind snapshot: 2 files +5 -0: /z.js, /a.js');
    expect(snapshotText({ fileCount: 0, linesAdded: 0, linesRemoved: 0, files: {} })).toBe('rewind snapshot: 0 files +0 -0');
    // No fileCount: the files are counted; no line counts at all: ?.
    expect(snapshotText({ files: { k: { path: '/x' }, j: 'odd' } })).toBe('rewind snapshot: 2 files +? -?: /x, j');
  });

  it('maps the older rewind-snapshots shape: paths from filePathMap, workspace line counts', async () => {
    const old = {
      version: 1,
      snapshots: [
        { snapshotId: 's', eventId: 'e', userMessage: '/init', timestamp: '2026-06-08T02:38:18.705Z', fileCount: 2, gitCommit: 'c', gitBranch: 'main', backupHashes: [], files: { k1: { gitStatus: ' M' }, k2: { gitStatus: '??' } }, workspaceLinesAdded: 7, workspaceLinesRemoved: 3 },
        { snapshotId: 't', userMessage: 'hi', timestamp: '2026-06-08T02:40:00.000Z', fileCount: 1, files: { k3: {} } },
      ],
      filePathMap: { k1: '/u/a', k2: '/u/b' },
    };
    const { rows } = await parseText(copilotSnapshotsParser, OLD_REL, JSON.stringify(old));
    expect(rows.map((r) => [r.turn_type, r.text, r.git_branch, r.source_line, r.session_id])).toEqual([
      ['user', '/init', '', 1, SID],
      ['system', 'rewind snapshot: 2 files +7 -3: /u/a, /u/b', '', 1, SID],
      ['user', 'hi', '', 2, SID],
      ['system', 'rewind snapshot: 1 files +? -?: k3', '', 2, SID],
    ]);
  });

  it('gives a bad-line row for a snapshot that is not an object, and one unreadable row for a bad file', async () => {
    const bad = await parseText(copilotSnapshotsParser, REL, '{"schema":1,"snapshots":[3]}');
    expect(bad.rows).toEqual([expect.objectContaining({ tag: 'bad_line', source_line: 1, session_id: SID, text: 'parser: unparseable line (expected a snapshot object, found a number): 3' })]);
    const broken = await parseText(copilotSnapshotsParser, REL, '{"schema":1,"snap');
    expect(broken.rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found invalid JSON') })]);
    const shape = await parseText(copilotSnapshotsParser, REL, '{"schema":1}');
    expect(shape.rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found snapshots as absent') })]);
  });

  it('a file cut inside the second snapshot gives the first one whole and what is complete of the second', async () => {
    const cut = `${SEED.slice(0, -2)},{"snapshotId":"s2","timestamp":"2026-10-01T09:05:00.000Z","userMessage":"and run lint","files":{"b":{"path":"/srv/pro`;
    const { rows, warnings } = await parseText(copilotSnapshotsParser, REL, cut);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text])).toEqual([
      [1, 'user', 'fix the failing test'],
      [1, 'system', 'rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js'],
      [2, 'user', 'and run lint'],
      [2, 'system', 'rewind snapshot: 0 files +? -?'],
    ]);
    expect(warnings).toHaveLength(1);
  });

  it('warns on a snapshot time it cannot read', async () => {
    const { rows, warnings } = await parseText(copilotSnapshotsParser, REL, '{"snapshots":[{"userMessage":"x","timestamp":"soon","files":{}}]}');
    expect(rows[0]).toMatchObject({ text: 'x', timestamp_utc: '' });
    expect(warnings).toHaveLength(1);
  });

  const real = existsSync(CORPUS) ? readdirSync(CORPUS).filter((d) => existsSync(`${CORPUS}/${d}/rewind-snapshots/index.json`)) : [];
  it.skipIf(real.length === 0)('reads the real older files (XEFF09__dotfiles): every snapshot, every path named', async () => {
    expect(real).toHaveLength(3);
    for (const d of real) {
      const body = readFileSync(`${CORPUS}/${d}/rewind-snapshots/index.json`, 'utf8');
      const j = JSON.parse(body) as { snapshots: { userMessage: string; fileCount: number; files: object }[]; filePathMap: Record<string, string> };
      const { rows, warnings } = await parseText(copilotSnapshotsParser, `.copilot/session-state/${d}/rewind-snapshots/index.json`, body);
      expect(warnings).toEqual([]);
      expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(j.snapshots.map((s) => s.userMessage));
      const sys = rows.filter((r) => r.tag === 'rewind_snapshot');
      expect(sys).toHaveLength(j.snapshots.length);
      for (const [i, s] of j.snapshots.entries()) {
        const paths = Object.keys(s.files).map((k) => j.filePathMap[k]);
        expect(sys[i].text.startsWith(`rewind snapshot: ${s.fileCount} files +`)).toBe(true);
        expect(sys[i].text.endsWith(`: ${paths.join(', ')}`)).toBe(true);
        expect(sys[i].session_id).toBe(d);
        expect(sys[i].timestamp_utc).toMatch(/^2026-06-08T/);
      }
    }
  });
});
