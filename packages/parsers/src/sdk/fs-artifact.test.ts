import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactFromFile } from './fs-artifact.js';
import { readJsonLines } from './line-reader.js';

const root = mkdtempSync(join(tmpdir(), 'aitrail-fs-artifact-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
// A file beside the home, which no sibling path may reach.
writeFileSync(join(root, 'outside.txt'), 'not evidence');

const sessionDir = join(home, '.copilot', 'session-state', 's1');
mkdirSync(sessionDir, { recursive: true });
const events = '{"type":"session.start"}\n{"type":"user.message"}\n';
writeFileSync(join(sessionDir, 'events.jsonl'), events);
writeFileSync(join(sessionDir, 'workspace.yaml'), 'id: s1\n');
writeFileSync(join(home, '.copilot', 'session-store.db'), 'db');
writeFileSync(join(home, '.copilot', 'session-store.db-wal'), 'wal');
mkdirSync(join(home, '.copilot', 'logs'));
utimesSync(join(sessionDir, 'events.jsonl'), new Date('2026-10-01T09:01:00.000Z'), new Date('2026-10-01T09:01:00.000Z'));

describe('artifactFromFile', () => {
  const rel = '.copilot/session-state/s1/events.jsonl';

  it('describes the file: rel, size, the mtime on disk, defaults for user and host', () => {
    const a = artifactFromFile(home, rel);
    expect({ rel: a.rel, user: a.user, host: a.host, scope: a.scope, size: a.size, mtime: a.mtime, sha256: a.sha256 }).toEqual({
      rel,
      user: 'user',
      host: 'host',
      scope: 'home',
      size: Buffer.byteLength(events),
      mtime: '2026-10-01T09:01:00.000Z',
      sha256: '',
    });
  });

  it('takes the recorded mtime, user, host and a hash when asked', () => {
    const a = artifactFromFile(home, rel, { mtime: '2026-01-01T00:00:00.000Z', user: 'sean', host: 'vm', hash: true });
    expect([a.mtime, a.user, a.host]).toEqual(['2026-01-01T00:00:00.000Z', 'sean', 'vm']);
    expect(a.sha256).toBe(createHash('sha256').update(events).digest('hex'));
  });

  it('streams the bytes, every time it is asked, for readJsonLines', async () => {
    const a = artifactFromFile(home, rel);
    for (let round = 0; round < 2; round++) {
      const types: unknown[] = [];
      for await (const l of readJsonLines(a.stream())) types.push(l.value?.type);
      expect(types).toEqual(['session.start', 'user.message']);
    }
  });

  it('gives its path on disk', async () => {
    expect(await artifactFromFile(home, rel).localPath()).toBe(join(home, '.copilot', 'session-state', 's1', 'events.jsonl'));
  });

  it('finds siblings by name and by a path relative to its directory, with their own mtime', () => {
    const a = artifactFromFile(home, rel, { mtime: '2020-01-01T00:00:00.000Z', user: 'sean' });
    const ws = a.sibling('workspace.yaml');
    expect(ws?.rel).toBe('.copilot/session-state/s1/workspace.yaml');
    expect(ws?.user).toBe('sean');
    expect(ws?.mtime).not.toBe('2020-01-01T00:00:00.000Z');
    const store = a.sibling('../../session-store.db');
    expect(store?.rel).toBe('.copilot/session-store.db');
    expect(store?.sibling('session-store.db-wal')?.size).toBe(3);
    expect(store?.sibling('session-store.db-shm')).toBeUndefined();
  });

  it('gives no sibling for a directory, a missing file, or a path that leaves the home', () => {
    const store = artifactFromFile(home, '.copilot/session-store.db');
    expect(store.sibling('logs')).toBeUndefined();
    expect(store.sibling('missing.json')).toBeUndefined();
    expect(store.sibling('../../outside.txt')).toBeUndefined();
    expect(store.sibling('/etc/passwd')).toBeUndefined();
  });

  it('throws for a file that does not exist (a test setup mistake, not bad data)', () => {
    expect(() => artifactFromFile(home, '.copilot/nope.json')).toThrow(/ENOENT/);
  });
});
