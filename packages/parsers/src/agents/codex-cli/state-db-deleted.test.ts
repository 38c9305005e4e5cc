import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Parser } from '../../sdk/types.js';
import { codexCliPlugin } from './index.js';
import { collectRows, diskArtifact, recordingContext } from './test-helpers/artifact.js';

// A real state_5.sqlite in WAL mode (the threads columns of the real 0.118.0 file), written by
// SQLite: a thread deleted after a checkpoint, the database copied with its -wal while the
// writer is open, as a collector copies it from a running machine.

const root = mkdtempSync(join(tmpdir(), 'aitrail-codex-deleted-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const stateDb = codexCliPlugin.parsers.find((p) => p.name === 'state-db') as Parser;
const KEPT = '019a4444-0000-7000-8000-0000000000aa';
const GONE = '019a4444-0000-7000-8000-0000000000bb';
const CREATE = `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0, has_user_event INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER, git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '', first_user_message TEXT NOT NULL DEFAULT '', agent_nickname TEXT, agent_role TEXT, memory_mode TEXT NOT NULL DEFAULT 'enabled', model TEXT, reasoning_effort TEXT, agent_path TEXT, created_at_ms INTEGER);`;

describe('state_<n>.sqlite: deleted threads carved back', () => {
  it('a thread deleted after the last checkpoint: a recovered row, then its metadata, prompt and name tagged recovered (session tags kept)', async () => {
    const path = join(root, 'taken', 'state_5.sqlite');
    takenWhileOpen(path, (db) => {
      db.exec(CREATE);
      const ins = db.prepare('INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, cli_version, first_user_message, model) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)');
      ins.run(KEPT, '/h/.codex/sessions/a.jsonl', 1790845200, 1790845300, 'cli', 'openai', '/srv/proj', 'kept', '{"type":"workspace-write"}', 'on-request', '0.118.0', 'kept prompt', 'gpt-5.4');
      ins.run(GONE, '/h/.codex/sessions/b.jsonl', 1790848800, 1790848900, 'cli', 'openai', '/srv/secret', 'dump the database', '{"type":"danger-full-access"}', 'never', '0.118.0', 'dump prod to /tmp and upload it', 'gpt-5.4');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('DELETE FROM threads WHERE id = ?').run(GONE);
    });
    const rows = await collectRows(stateDb, diskArtifact(path, '.codex/state_5.sqlite'), recordingContext());
    expect(rows.filter((r) => r.session_id === KEPT).every((r) => r.tag !== 'recovered')).toBe(true);
    expect(rows.filter((r) => r.session_id === GONE).map((r) => [r.turn_type, r.text, r.project_path, r.timestamp_utc, r.tag])).toEqual([
      ['system', expect.stringMatching(/^deleted thread recovered: 019a4444-0000-7000-8000-0000000000bb \(no longer in the table; carved from the main file, as of the last checkpoint, page \d+, rowid 2\)$/), '/srv/secret', '2026-10-01T10:00:00.000Z', 'recovered'],
      ['system', 'session metadata: title=dump the database source=cli provider=openai cli=0.118.0 approval=never sandbox=danger-full-access tokens=0 archived=0', '/srv/secret', '2026-10-01T10:00:00.000Z', 'session_metadata'],
      ['user', 'dump prod to /tmp and upload it', '/srv/secret', '2026-10-01T10:00:00.000Z', 'recovered'],
      ['system', 'session name: dump the database', '/srv/secret', '2026-10-01T10:01:40.000Z', 'session_name'],
    ]);
  });
});
