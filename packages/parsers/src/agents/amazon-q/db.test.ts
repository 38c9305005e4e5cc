import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { buildDb, copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { amazonQPlugin } from './index.js';

// The two data.sqlite3 stores of fixtures/homes/amazon-q-kiro (built by make/build.mjs from the
// Q CLI source and the Kiro peer reader), row by row from the fixture's values and the spec's plan.

const db = amazonQPlugin.parsers[0];
const homes = tempHomes('amazon-q-db');
const Q = '.local/share/amazon-q/data.sqlite3';
const K = '.local/share/kiro-cli/data.sqlite3';
const SVC = '3f1c9a2e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
const OLD = '0a0b0c0d-0000-4000-8000-00000000000e';
const ms = (n: number) => new Date(n).toISOString();
const line = (r: Row) => [r.session_id === SVC ? 'SVC' : r.session_id === OLD ? 'OLD' : r.session_id, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.text, r.tag ?? ''];

describe('amazon-q data.sqlite3 (q chat)', () => {
  it('gives each conversation: prompts, context, tool uses and results, the cancelled call, model changes, the summary; the shell history row', async () => {
    const { rows, ctx } = await run(db, copyHome('amazon-q-kiro', homes.make()), Q);
    expect(rows.map(line)).toEqual([
      ['OLD', '2025-08-04T23:30:00.000Z', 'system', '', '', 'CLAUDE_3_7_SONNET_20250219_V1_0', `conversation ${OLD} in /home/dev/old (summary present: no)`, 'session_start'],
      ['OLD', '2025-08-04T23:30:00.000Z', 'user', '', '', '', 'what does scripts/release.sh do?', ''],
      ['OLD', '2025-08-04T23:30:00.000Z', 'assistant', '', '', 'CLAUDE_3_7_SONNET_20250219_V1_0', 'It tags the repo and pushes the tag.', ''],
      ['SVC', '2026-09-17T09:00:00.000Z', 'system', '', '', 'claude-opus-4.1', `conversation ${SVC} in /home/dev/svc (summary present: yes)`, 'session_start'],
      ['SVC', '2026-09-17T09:00:00.000Z', 'system', '', '', '', 'context: --- CONTEXT ENTRY BEGIN ---\n[/home/dev/svc/AmazonQ.md]\nThe svc runs on ECS.\n--- CONTEXT ENTRY END ---\n\n', 'context'],
      ['SVC', '2026-09-17T09:00:00.000Z', 'user', '', '', '', 'why does the svc container restart every hour?', ''],
      ['SVC', ms(1789635604200), 'system', '', '', 'claude-sonnet-4', 'model: claude-sonnet-4', 'model'],
      ['SVC', ms(1789635604200), 'assistant', '', '', 'claude-sonnet-4', 'Let me look at the task definition.', ''],
      ['SVC', ms(1789635604200), 'tool_use', 'execute_bash', 'tooluse_q1', 'claude-sonnet-4', 'aws ecs describe-task-definition --task-definition svc', ''],
      ['SVC', '2026-09-17T09:00:06.000Z', 'tool_result', 'execute_bash', 'tooluse_q1', '', '{"healthCheck":{"interval":3600}}', ''],
      ['SVC', ms(1789635610000), 'assistant', '', '', 'claude-sonnet-4', 'The health check interval is 3600 s and it fails, so ECS restarts the task.', ''],
      ['SVC', '2026-09-17T09:02:00.000Z', 'user', '', '', '', 'fix it in infra/task.json', ''],
      ['SVC', ms(1789635723000), 'system', '', '', 'claude-opus-4.1', 'model: claude-sonnet-4 -> claude-opus-4.1', 'model'],
      ['SVC', ms(1789635723000), 'tool_use', 'fs_write', 'tooluse_q2', 'claude-opus-4.1', 'str_replace /home/dev/svc/infra/task.json', ''],
      ['SVC', '2026-09-17T09:02:30.000Z', 'system', '', '', '', 'tool use cancelled or denied: fs_write tooluse_q2', 'permission_decision'],
      ['SVC', '2026-09-17T09:02:30.000Z', 'tool_result', 'fs_write', 'tooluse_q2', '', '[error] Tool use was cancelled by the user', ''],
      ['SVC', '2026-09-17T09:02:30.000Z', 'user', '', '', '', 'no, do not touch that file; explain instead', ''],
      ['SVC', ms(1789635753000), 'assistant', '', '', 'claude-opus-4.1', 'Set healthCheck.interval to 30 in infra/task.json yourself.', ''],
      ['SVC', ms(1789635753000), 'system', '', '', '', 'context summary: The svc task restarts hourly because its health check fails; the user refused an edit of infra/task.json.', 'compaction'],
      ['', '2024-08-15T23:20:00.000Z', 'system', '', '', '', 'shell command (shell integration): git push origin main exit=0', 'shell_history'],
    ]);
    expect(ctx.facts.filter((f) => f.session_id === SVC).map((f) => [f.key, f.value, f.priority, f.at ?? ''])).toEqual([
      ['cwd', '/home/dev/svc', 3, ''],
      ['cwd', '/home/dev/svc', 2, '2026-09-17T09:00:00.000Z'],
      ['cwd', '/home/dev/svc', 2, '2026-09-17T09:00:06.000Z'],
      ['cwd', '/home/dev/svc', 2, '2026-09-17T09:02:00.000Z'],
      ['cwd', '/home/dev/svc', 2, '2026-09-17T09:02:30.000Z'],
      ['client', 'q-cli', 2, ''],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });

  it('never reads auth_kv or state: their FAKE tokens and start URL reach no row', async () => {
    const { rows } = await run(db, copyHome('amazon-q-kiro', homes.make()), Q);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE|aoaAAAA|awsapps/);
    expect(db.readsSecretFile?.(Q)).toBe(true);
    const home = homes.make();
    buildDb(home, Q, 'CREATE TABLE auth_kv (key TEXT, value TEXT); CREATE TABLE state (key TEXT, value BLOB);', [["INSERT INTO auth_kv VALUES ('codewhisperer:odic:token', 'FAKEonly')", []]]);
    expect((await run(db, home, Q)).rows).toEqual([]);
  });
});

describe('amazon-q data.sqlite3 (kiro-cli conversations_v2)', () => {
  it('reads the newest row of a conversation stored under two cwd keys, and says the older copy is there', async () => {
    const { rows, ctx } = await run(db, copyHome('amazon-q-kiro', homes.make()), K);
    const C = '7e57c0de-1111-4222-8333-444455556666';
    expect(rows.map((r) => [r.session_id === C, r.timestamp_utc, r.turn_type, r.project_path, r.text, r.tag ?? ''])).toEqual([
      [true, '2026-09-18T08:00:00.000Z', 'system', '/home/dev/svc', `conversation ${C} in /home/dev/svc (summary present: no)`, 'session_start'],
      [true, '2026-09-18T08:00:00.000Z', 'user', '/home/dev/svc', 'summarize the open PRs', ''],
      [true, ms(1789718404000), 'system', '/home/dev/svc', 'model: auto', 'model'],
      [true, ms(1789718404000), 'assistant', '/home/dev/svc', 'Two PRs are open: #12 and #15.', ''],
      [true, '2026-09-18T08:01:00.000Z', 'user', '/home/dev/svc', 'and which one is blocked?', ''],
      [true, ms(1789718463000), 'assistant', '/home/dev/svc', '#15 waits on review.', ''],
      [true, ms(1789718404000), 'system', '/home/dev', `conversation ${C} also stored under /home/dev (an older copy; the newest, under /home/dev/svc, is read)`, 'session_metadata'],
    ]);
    expect(ctx.facts.find((f) => f.key === 'client')).toEqual({ session_id: C, key: 'client', value: 'kiro-cli', priority: 2 });
  });

  it('a value that is not JSON, a bare prompt string, an unknown content variant: rows that say so, never a throw', async () => {
    const home = homes.make();
    const v = (o: unknown) => JSON.stringify(o);
    buildDb(home, K, 'CREATE TABLE conversations_v2 (key TEXT, conversation_id TEXT, value TEXT, created_at INTEGER, updated_at INTEGER);', [
      ['INSERT INTO conversations_v2 VALUES (?, ?, ?, ?, ?)', ['/a', 'c1', 'not json', 1, 1]],
      ['INSERT INTO conversations_v2 VALUES (?, ?, ?, ?, ?)', ['/b', 'c2', v({ conversation_id: 'c2', history: [{ user: { content: 'bare prompt' }, assistant: { Response: { content: 'ok' } } }, { user: { content: { Telepathy: {} } }, assistant: { Hologram: {} } }] }), 1789718400000, 1789718400000]],
    ]);
    const { rows, ctx } = await run(db, home, K);
    expect(rows.map((r) => [r.turn_type, r.text, r.tag ?? ''])).toEqual([
      ['system', 'parser: unreadable conversation under /a (its value is not a JSON object)', 'bad_line'],
      ['system', 'conversation c2 in /b (summary present: no)', 'session_start'],
      ['user', 'bare prompt', ''],
      ['assistant', 'ok', ''],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['user content Telepathy', 'assistant message Hologram']);
  });
});
