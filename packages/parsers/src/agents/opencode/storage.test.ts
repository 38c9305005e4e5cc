import { beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { openCodePlugin } from './index.js';
import { copyHome, relFiles, run, tempHomes, writeFiles } from './test-helpers/harness.js';

// The legacy JSON store of fixtures/homes/opencode-live: the copy of a database session (its rows
// must equal the database's, so the analyzer drops them), a session only the legacy store holds,
// the side files, and the oldest per-project layout.

const [dbParser, storage] = openCodePlugin.parsers;
const homes = tempHomes('opencode-storage');
const DATA = '.local/share/opencode';
const COPY = 'ses_dd05a8037ffeJZInD8euLCyD9b';
const ONLY = 'ses_6aade4081ffeLegacyOnly0001';
const key = (r: Row) => JSON.stringify([r.timestamp_utc, r.session_id, r.turn_type, r.text, r.tool_name, r.tool_use_id, r.model]);

describe('opencode legacy storage', () => {
  let home: string;
  let rows: Row[];
  const byFile = new Map<string, Row[]>();
  beforeAll(async () => {
    home = copyHome('opencode-live', homes.make());
    rows = [];
    for (const rel of relFiles(home)) {
      if (!storage.wants(rel)) continue;
      const r = (await run(storage, home, rel)).rows;
      byFile.set(rel, r);
      rows.push(...r);
    }
  });

  it('wants the session, message, part, todo, permission and share files of both layouts, and nothing else', () => {
    const wanted = relFiles(home).filter((r) => storage.wants(r));
    expect(wanted.filter((r) => r.includes('/storage/project/'))).toEqual([]);
    expect(wanted.length).toBe(relFiles(home).filter((r) => r.startsWith(`${DATA}/storage/`) || r.startsWith(`${DATA}/project/`)).length - 1);
  });

  it("gives for the migrated session exactly rows the database gives for it (so they drop as copies), and keeps the database's copy first", async () => {
    const db = (await run(dbParser, home, `${DATA}/opencode.db`)).rows.filter((r) => r.session_id === COPY);
    const legacy = rows.filter((r) => r.session_id === COPY);
    const dbKeys = new Set(db.map(key));
    // The database adds what a legacy file cannot say: the agent and model columns, and the model rows (which need the session's order).
    expect(legacy.filter((r) => !dbKeys.has(key(r)))).toEqual([]);
    expect(db.filter((r) => !new Set(legacy.map(key)).has(key(r))).map((r) => r.tag)).toEqual(['session_metadata', 'model']);
    expect(storage.copyRank?.(`${DATA}/storage/part/m/p.json`)).toBe(1);
    expect(dbParser.copyRank?.(`${DATA}/opencode.db`)).toBe(0);
  });

  it('reads a session only the legacy store holds: every part kind, the rejected call, the model change and the error', () => {
    const only = rows.filter((r) => r.session_id === ONLY).map((r) => [r.timestamp_utc, r.turn_type, r.text.slice(0, 60), r.tag ?? '']);
    expect(only).toEqual(
      expect.arrayContaining([
        ['2026-09-14T10:40:00.000Z', 'system', 'session start: title=Fix the flaky date test version=1.0.180', 'session_start'],
        ['2026-09-14T10:50:00.000Z', 'system', 'session shared: https://opncd.ai/s/Ab12Cd34', 'session_metadata'],
        ['2026-09-14T10:40:01.000Z', 'user', 'fix the flaky test in @src/date.test.ts', ''],
        ['2026-09-14T10:40:01.000Z', 'system', 'attachment: [file: src/date.test.ts] text/plain', 'attachment'],
        ['2026-09-14T10:40:03.000Z', 'thinking', 'The test hard-codes the year; make it relative.', ''],
        ['2026-09-14T10:40:07.000Z', 'tool_use', 'rm -rf node_modules && npm ci', ''],
        ['2026-09-14T10:40:09.000Z', 'system', 'permission denied: bash', 'permission_decision'],
        ['2026-09-14T10:41:00.000Z', 'user', 'now plan the release notes', ''],
        ['2026-09-14T10:41:01.000Z', 'system', 'error: MessageAbortedError: The operation was aborted.', 'error'],
      ]),
    );
    expect(only.filter((r) => r[1] === 'user').length).toBe(2);
  });

  it('todo and permission files carry the file time (no time per entry), and the share file never prints its secret', () => {
    const todo = byFile.get(`${DATA}/storage/todo/${ONLY}.json`)!;
    expect(todo.map((r) => [r.text, r.tag])).toEqual([
      ['todo completed: make the date test relative', 'time_file'],
      ['todo pending: write release notes', 'time_file'],
    ]);
    expect(byFile.get(`${DATA}/storage/permission/0e28c7c89ec07c9be8bfdf90f72fe61b29dd3bf2.json`)!.map((r) => r.tag)).toEqual(['permission_setting']);
    expect(JSON.stringify(rows)).not.toContain('FAKE-share-secret');
    expect(storage.readsSecretFile?.(`${DATA}/storage/session_share/${ONLY}.json`)).toBe(true);
  });

  it('reads the oldest layout: parts inside the message, AI SDK tool invocations, metadata times and model', () => {
    const old = rows.filter((r) => r.session_id === 'ses_0ldest0000000000000000001').map((r) => [r.turn_type, r.text, r.tool_name, r.model]);
    expect(old).toEqual([
      ['system', 'session start: title=Explain the build version=0.1.150', '', ''],
      ['system', 'session name: Explain the build', '', ''],
      ['user', 'how is this project built?', '', ''],
      ['tool_use', 'cat package.json', 'bash', 'claude-3-7-sonnet'],
      ['tool_result', '{"scripts":{"build":"tsc"}}', 'bash', ''],
      ['assistant', 'It is built with tsc.', '', 'claude-3-7-sonnet'],
    ]);
  });

  it("a part whose message file was not collected: rows without the message's time, role unknown, and a warning", async () => {
    const h = homes.make();
    writeFiles(h, { [`${DATA}/storage/part/msg_gone/prt_1.json`]: JSON.stringify({ id: 'prt_1', sessionID: 'ses_x', messageID: 'msg_gone', type: 'text', text: 'orphan' }) });
    const r = await run(storage, h, `${DATA}/storage/part/msg_gone/prt_1.json`);
    expect(r.rows.map((x) => [x.session_id, x.turn_type, x.text, x.timestamp_utc])).toEqual([['ses_x', 'system', 'text (role unknown): orphan', '']]);
    expect(r.ctx.warnings.map((w) => w.message)).toEqual([`${DATA}/storage/part/msg_gone/prt_1.json: its message file was not collected; the part's role is unknown`]);
  });

  it('bad JSON, an empty file and the wrong type each give one row that says so', async () => {
    const h = homes.make();
    writeFiles(h, {
      [`${DATA}/storage/session/p/ses_bad.json`]: '{"id": "ses_bad", "title": ',
      [`${DATA}/storage/session/p/ses_empty.json`]: '',
      [`${DATA}/storage/message/ses_x/msg_arr.json`]: '[1, 2]',
      [`${DATA}/storage/session_share/ses_s.json`]: '{"secret": "FAKE-sec',
    });
    const texts = async (rel: string) => (await run(storage, h, rel)).rows.map((x) => [x.tag, x.text]);
    expect(await texts(`${DATA}/storage/session/p/ses_bad.json`)).toEqual([['unreadable', 'parser: unreadable file (expected JSON, found invalid JSON: ValueExpected at offset 27)']]);
    expect(await texts(`${DATA}/storage/session/p/ses_empty.json`)).toEqual([['unreadable', 'parser: unreadable file (expected JSON, found an empty file)']]);
    expect(await texts(`${DATA}/storage/message/ses_x/msg_arr.json`)).toEqual([['unreadable', 'parser: unreadable file (expected a JSON object for a message record, found an array)']]);
    expect(JSON.stringify(await texts(`${DATA}/storage/session_share/ses_s.json`))).not.toContain('FAKE-sec');
  });
});
