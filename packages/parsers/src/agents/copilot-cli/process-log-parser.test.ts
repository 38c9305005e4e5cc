import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { copilotProcessLogParser } from './process-log-parser.js';
import { CORPUS_ROOT, parseText, runParser } from './test-helpers/harness.js';

const REL = '.copilot/logs/process-1790845199000-4242.log';
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const CORPUS = `${CORPUS_ROOT}`;
const SEED = `2026-10-01T08:59:59.100Z [INFO] Starting Copilot CLI: 1.0.98
2026-10-01T08:59:59.400Z [INFO] Signed in to https://github.com as octo-user.
2026-10-01T08:59:59.900Z [INFO] Workspace initialized: ${SID}
`;
const parse = (body: string, rel = REL) => parseText(copilotProcessLogParser, rel, body);

describe('process log parser', () => {
  it('gives the seed sign-in row at the line time, with the session the file names', async () => {
    const { rows } = await parse(SEED);
    expect(rows).toEqual([
      {
        timestamp_utc: '2026-10-01T08:59:59.400Z',
        session_id: SID,
        project_path: '',
        git_branch: '',
        model: '',
        tool_name: '',
        tool_use_id: '',
        turn_type: 'system',
        text: 'signed in: https://github.com as octo-user',
        source_line: 2,
        tag: 'signed_in',
      },
    ]);
  });

  it('takes the session from a later "(checkpoints: 0)" line, and repeats of the same id', async () => {
    const body = `2026-10-01T08:59:59.400Z [INFO] Signed in to https://github.com as octo-user.\n2026-10-01T09:00:00.000Z [INFO] Workspace initialized: ${SID} (checkpoints: 0)\n2026-10-01T09:10:00.000Z [INFO] Workspace initialized: ${SID}\n`;
    expect((await parse(body)).rows[0].session_id).toBe(SID);
  });

  it('leaves session_id empty when the file names two sessions or none', async () => {
    const two = `${SEED}2026-10-01T09:10:00.000Z [INFO] Workspace initialized: 00000000-0000-4000-8000-000000000002\n`;
    expect((await parse(two)).rows.map((r) => r.session_id)).toEqual(['']);
    const none = '2026-10-01T08:59:59.400Z [INFO] Signed in to https://ghe.example.com as a-b.\n';
    expect((await parse(none)).rows.map((r) => [r.session_id, r.text])).toEqual([['', 'signed in: https://ghe.example.com as a-b']]);
  });

  it('reads rotated logs and ignores continuation lines, other messages and a cut last line', async () => {
    const body = `2026-10-01T08:00:00.000Z [ERROR] Starting MCP client with \ncommand: Signed in to x as y.\n2026-10-01T08:00:01.000Z [WARNING] [rust:copilot_runtime::auth::gh] failed\n2026-10-01T08:00:02.000Z [INFO] Signed in to https://github.com as octo.`;
    const { rows } = await parse(body, '.copilot/logs/process-1792273608752-2868.3.log');
    expect(rows.map((r) => [r.text, r.source_line])).toEqual([['signed in: https://github.com as octo', 4]]);
  });

  it('keeps every sign-in row past the buffer limit, in order, with the session found at the end', async () => {
    const lines = Array.from({ length: 10_005 }, (_, i) => `2026-10-01T08:00:00.000Z [INFO] Signed in to https://github.com as u${i}.`);
    lines.push(`2026-10-01T09:00:00.000Z [INFO] Workspace initialized: ${SID}`);
    const { rows } = await parse(`${lines.join('\n')}\n`);
    expect(rows).toHaveLength(10_005);
    expect(rows.map((r) => r.source_line)).toEqual(Array.from({ length: 10_005 }, (_, i) => i + 1));
    expect(rows.every((r) => r.session_id === SID)).toBe(true);
    expect(rows[10_004].text).toBe('signed in: https://github.com as u10004');
  });

  const logs: [string, string][] = [];
  if (existsSync(CORPUS)) {
    for (const home of readdirSync(CORPUS)) {
      const dir = `${CORPUS}/${home}/.copilot/logs`;
      if (existsSync(dir)) for (const f of readdirSync(dir)) logs.push([`${CORPUS}/${home}`, `.copilot/logs/${f}`]);
    }
  }
  it.skipIf(logs.length === 0)('reads every real process log without a row (none holds a sign-in line)', async () => {
    expect(logs).toHaveLength(10);
    for (const [home, rel] of logs) {
      expect(copilotProcessLogParser.wants(rel)).toBe(true);
      const { rows, warnings } = await runParser(copilotProcessLogParser, artifactFromFile(home, rel));
      expect(rows).toEqual([]);
      expect(warnings).toEqual([]);
    }
  });
});

describe('process log parser on a failing stream', () => {
  it('keeps the rows read so far and ends with one unreadable row', async () => {
    const a = {
      rel: REL,
      user: 'u',
      host: 'h',
      scope: 'home' as const,
      size: 0,
      mtime: '',
      sha256: '',
      localPath: async () => '',
      sibling: () => undefined,
      async *stream() {
        yield Buffer.from(SEED);
        throw new Error('EIO: i/o error');
      },
    };
    const { rows } = await runParser(copilotProcessLogParser, a);
    expect(rows.map((r) => [r.tag, r.session_id, r.source_line])).toEqual([
      ['signed_in', SID, 2],
      ['unreadable', '', 3],
    ]);
    expect(rows[1].text).toBe('parser: unreadable file (read failed after line 3: EIO: i/o error)');
  });

  it('gives a row per failed MCP server start and reports each to the inventory (Copilot Desktop bundled CLI 1.0.99-2 form)', async () => {
    const log = `${SEED}2026-10-01T09:00:01.000Z [ERROR] MCP server connection failed {"server_name":"github","raw_error":"failed to spawn MCP server process: program not found"}
2026-10-01T09:00:02.000Z [ERROR] [rust:copilot_runtime::mcp] MCP server connection failed {"server_name":"jira","raw_error":"failed to spawn MCP server process: program not found"}
2026-10-01T09:00:03.000Z [WARNING] MCP server connection failed timeout after 30s
2026-10-01T09:00:04.000Z [INFO] Best-effort plugin preparation skipped 1 item
`;
    const { rows, mcpServers } = await parse(log);
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.text, r.tag, r.session_id])).toEqual([
      [2, '2026-10-01T08:59:59.400Z', 'signed in: https://github.com as octo-user', 'signed_in', SID],
      [4, '2026-10-01T09:00:01.000Z', 'MCP server connection failed: github: failed to spawn MCP server process: program not found', 'mcp_failure', SID],
      [5, '2026-10-01T09:00:02.000Z', 'MCP server connection failed: jira: failed to spawn MCP server process: program not found', 'mcp_failure', SID],
      [6, '2026-10-01T09:00:03.000Z', 'MCP server connection failed: -: timeout after 30s', 'mcp_failure', SID],
    ]);
    expect(mcpServers).toEqual([
      { name: 'github', scope: '', failure: { timestamp_utc: '2026-10-01T09:00:01.000Z', message: 'failed to spawn MCP server process: program not found' }, line: 4 },
      { name: 'jira', scope: '', failure: { timestamp_utc: '2026-10-01T09:00:02.000Z', message: 'failed to spawn MCP server process: program not found' }, line: 5 },
      { name: '', scope: '', failure: { timestamp_utc: '2026-10-01T09:00:03.000Z', message: 'timeout after 30s' }, line: 6 },
    ]);
  });
});
