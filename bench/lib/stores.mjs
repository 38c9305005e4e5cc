// The files beside the event logs: workspace.yaml, session-store.db (rows only in its WAL),
// command-history-state.json, rewind snapshots, sidebar files, permissions and process logs.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textFrom } from './prng.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// better-sqlite3 is a dependency of @aitrail/parsers, not of the workspace root.
const Database = createRequire(join(root, 'packages', 'parsers', 'package.json'))('better-sqlite3');

/** workspace.yaml of a session; every value written as JSON (valid YAML), so a generated name holding `: ` or `#` still parses. */
export function workspaceYaml(s) {
  const fields = [
    ['id', s.id],
    ['cwd', s.cwd],
    ['client_name', 'github/cli'],
    ['name', s.name],
    ['user_named', false],
    ['summary_count', s.checkpoints ?? 0],
    ['fork_count', 0],
    ['created_at', s.created],
    ['updated_at', s.updated],
    ['remote_steerable', false],
    ['mc_task_id', s.synced ? s.mcTask : null],
    ['mc_session_id', s.synced ? s.mcSession : null],
    ['mc_last_event_id', s.synced ? s.mcLast : null],
  ];
  return `${fields.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n`;
}

export function snapshotsJson(rng, s, prompts) {
  const snapshots = prompts.map((p) => {
    const path = `${s.cwd}/src/${rng.hex(6)}.ts`;
    const added = rng.int(0, 80);
    const removed = rng.int(0, 40);
    return { snapshotId: rng.uuid(), eventId: rng.uuid(), timestamp: p.ts, userMessage: p.text, fileCount: 1, linesAdded: added, linesRemoved: removed, backupFiles: [], files: { [rng.hex(16)]: { path, linesAdded: added, linesRemoved: removed, preimage: { kind: 'missing' }, postimage: { kind: 'file', contentHash: rng.hex(64), encodedPath: { data: path, encoding: 'utf8' }, resolvedPath: path } } } };
  });
  return JSON.stringify({ schema: 1, snapshots });
}

export function historyJson(prompts) {
  // Newest first, at most 50 (the CLI's default commandHistoryMaxSize).
  return JSON.stringify({ commandHistory: prompts.slice(-50).reverse() });
}

export function sidebarFiles(sessions) {
  const byCwd = new Map();
  for (const s of sessions) byCwd.set(s.cwd, [...(byCwd.get(s.cwd) ?? []), s.id]);
  return [...byCwd].map(([cwd, ids]) => ({ name: `${createHash('sha256').update(cwd).digest('hex')}.json`, text: JSON.stringify({ schemaVersion: 1, cwd, sessionIds: ids }) }));
}

export function permissionsConfig(sessions) {
  const locations = {};
  for (const s of sessions) locations[s.cwd] = { tool_approvals: [{ kind: 'write' }, { kind: 'commands', commandIdentifiers: ['npm test'] }] };
  return JSON.stringify({ locations });
}

export function processLog(rng, pool, s, login) {
  const ts = (ms) => new Date(ms).toISOString();
  const lines = [`${ts(s.startMs - 900)} [INFO] Starting Copilot CLI: 1.0.98`, `${ts(s.startMs - 800)} [INFO] Node.js version: v24.11.1`, `${ts(s.startMs - 500)} [INFO] Signed in to https://github.com as ${login}.`, `${ts(s.startMs - 100)} [INFO] Workspace initialized: ${s.id} (checkpoints: 0)`];
  const n = rng.int(5, 60);
  for (let i = 0; i < n; i++) lines.push(`${ts(s.startMs + i * 1000)} [${rng.chance(0.1) ? 'WARNING' : 'INFO'}] ${textFrom(rng, pool, rng.int(30, 200)).replace(/\n/g, ' ')}`);
  lines.push(`${ts(s.endMs)} [INFO] Starting graceful shutdown of CLI server`);
  return `${lines.join('\n')}\n`;
}

const SCHEMA = `
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
CREATE TABLE turns (session_id TEXT NOT NULL, turn_index INTEGER NOT NULL, user_message TEXT, assistant_response TEXT, timestamp TEXT, PRIMARY KEY (session_id, turn_index));
CREATE TABLE session_files (session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT, UNIQUE (session_id, file_path));
CREATE TABLE session_refs (session_id TEXT, ref_type TEXT, ref_value TEXT, turn_index INTEGER, created_at TEXT);
CREATE TABLE checkpoints (session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT);
CREATE VIRTUAL TABLE search_index USING fts5(content, session_id UNINDEXED, source_type UNINDEXED, source_id UNINDEXED);
CREATE TABLE assistant_usage_events (id INTEGER PRIMARY KEY, session_id TEXT, model TEXT, input_tokens INTEGER, output_tokens INTEGER, total_nano_aiu INTEGER, initiator TEXT, api_endpoint TEXT, reasoning_effort TEXT, finish_reason TEXT, created_at TEXT);
CREATE TABLE forge_trajectory_events (session_id TEXT, tool_call_id TEXT, turn_index INTEGER, event_type TEXT, command TEXT, output TEXT, exit_code INTEGER, event_key TEXT, event_value TEXT, created_at TEXT);
CREATE TABLE forge_skill_proposals (id INTEGER PRIMARY KEY, name TEXT, body TEXT);
CREATE TABLE dynamic_context_items (id INTEGER PRIMARY KEY, repository TEXT, content TEXT);
`;

/**
 * Write session-store.db as the CLI leaves it: WAL mode, never checkpointed, so the main file
 * holds only the header page and every row lives in the -wal. The three files are copied while
 * the writer is still open (closing would fold the WAL into the database).
 */
export function writeStore(destDir, sessions) {
  const tmp = mkdtempSync(join(tmpdir(), 'aitrail-bench-store-'));
  const dbPath = join(tmp, 'session-store.db');
  const db = new Database(dbPath);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec(SCHEMA);
    const ins = {
      ver: db.prepare('INSERT INTO schema_version VALUES (8)'),
      session: db.prepare('INSERT INTO sessions VALUES (?, ?, NULL, NULL, ?, ?, ?, ?)'),
      turn: db.prepare('INSERT INTO turns VALUES (?, ?, ?, ?, ?)'),
      file: db.prepare('INSERT OR IGNORE INTO session_files VALUES (?, ?, ?, ?, ?)'),
      search: db.prepare('INSERT INTO search_index (content, session_id, source_type, source_id) VALUES (?, ?, ?, ?)'),
      usage: db.prepare('INSERT INTO assistant_usage_events (session_id, model, input_tokens, output_tokens, total_nano_aiu, initiator, api_endpoint, reasoning_effort, finish_reason, created_at) VALUES (?, ?, 900, 40, 120000, ?, ?, ?, ?, ?)'),
    };
    db.transaction(() => {
      ins.ver.run();
      for (const s of sessions) {
        ins.session.run(s.id, s.cwd, s.branch, s.name, s.created, s.updated);
        let idx = 0;
        for (const p of s.prompts) {
          // A prompt-only row written mid-turn, then the complete row under the next index.
          if (p.promptOnly) ins.turn.run(s.id, idx++, p.text, null, p.ts);
          ins.turn.run(s.id, idx, p.text, p.reply, p.endTs);
          ins.search.run(p.reply ? `${p.text}\n${p.reply}` : p.text, s.id, 'turn', `${s.id}:turn:${idx}`);
          ins.usage.run(s.id, s.model, 'user', '/v1/messages', 'medium', 'stop', p.endTs);
          idx += 1;
        }
        for (const f of s.files) ins.file.run(s.id, f.path, 'apply_patch', 0, f.ts);
      }
    })();
    mkdirSync(destDir, { recursive: true });
    for (const ext of ['', '-wal', '-shm']) copyFileSync(dbPath + ext, join(destDir, `session-store.db${ext}`));
  } finally {
    db.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  makeWalDeterministic(join(destDir, 'session-store.db'));
}

/**
 * SQLite salts every WAL with random numbers, so two runs would differ in those bytes. Replace
 * the salts with constants and recompute the cumulative frame checksums, then let SQLite rebuild
 * the -shm index from the fixed WAL (a read-only open recovers it and never checkpoints).
 */
function makeWalDeterministic(dbPath) {
  const wal = readFileSync(`${dbPath}-wal`);
  const le = wal.readUInt32BE(0) === 0x377f0682;
  const pageSize = wal.readUInt32BE(8);
  const salt = [0x5eed0001, 0x5eed0002];
  const sum = (off, len, s) => {
    let [a, b] = s;
    for (let i = off; i < off + len; i += 8) {
      a = (a + (le ? wal.readUInt32LE(i) : wal.readUInt32BE(i)) + b) >>> 0;
      b = (b + (le ? wal.readUInt32LE(i + 4) : wal.readUInt32BE(i + 4)) + a) >>> 0;
    }
    return [a, b];
  };
  wal.writeUInt32BE(salt[0], 16);
  wal.writeUInt32BE(salt[1], 20);
  let s = sum(0, 24, [0, 0]);
  wal.writeUInt32BE(s[0], 24);
  wal.writeUInt32BE(s[1], 28);
  for (let off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
    wal.writeUInt32BE(salt[0], off + 8);
    wal.writeUInt32BE(salt[1], off + 12);
    s = sum(off, 8, s);
    s = sum(off + 24, pageSize, s);
    wal.writeUInt32BE(s[0], off + 16);
    wal.writeUInt32BE(s[1], off + 20);
  }
  writeFileSync(`${dbPath}-wal`, wal);
  const shmSize = readFileSync(`${dbPath}-shm`).length;
  writeFileSync(`${dbPath}-shm`, Buffer.alloc(shmSize));
  const ro = new Database(dbPath, { readonly: true, fileMustExist: true });
  ro.prepare('SELECT count(*) FROM turns').get();
  ro.close();
}
