import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { memoryArtifact, type RecordingContext, recordingContext } from './test-helpers/context.js';
import { parseTranscript } from './transcript.js';

// fixtures/homes/live-claude: transcripts the real Claude Code 2.1.332 and 2.1.143 wrote (see its
// README). Expected rows are written from docs/agents/claude-code.md's Rows table, by hand; the
// long texts (system prompt) are rebuilt from the record with plain JSON.parse.
const DIR = fileURLToPath(new URL('../../../../../fixtures/homes/live-claude/.claude/projects/-home-live-claude-code-proj/', import.meta.url));
const TOOL_332 = '62e839ac-9a2a-4fb5-8cf9-55d66ba25fe6';
const MCP_332 = 'f93e6479-cafa-4d9d-8136-b01aa44e5813';
const TOOL_143 = '0b8595e6-f070-4ba9-86ce-e6f562aadcbe';
const CWD = '/home/live-claude-code/proj';
const PROMPT = 'Run the shell command echo aitrail-live-marker and tell me what it printed.';

type Obj = Record<string, unknown>;
interface Parsed {
  rows: Row[];
  skipped: Map<number, string>;
  ctx: RecordingContext;
  lines: Obj[];
}

async function parse(sid: string): Promise<Parsed> {
  const file = `${DIR}${sid}.jsonl`;
  const a = { ...memoryArtifact(`.claude/projects/-home-live-claude-code-proj/${sid}.jsonl`, ''), stream: () => createReadStream(file) };
  const ctx = recordingContext(true);
  const skipped = new Map<number, string>();
  const rows: Row[] = [];
  for await (const r of parseTranscript(a, ctx, { onSkip: (n, why) => skipped.set(n, why) })) rows.push(r);
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Obj);
  return { rows, skipped, ctx, lines };
}

// The system prompt as the spec's rule reads it: the shape's system block texts joined by a blank line.
function systemPromptOf(lines: Obj[], n: number): string {
  const shape = lines[n - 1].shape as { system: { text: string }[] };
  return `system prompt: ${shape.system.map((b) => b.text).join('\n\n')}`;
}

const view = (rows: Row[]) => rows.map((r) => [r.source_line, r.turn_type, r.tag ?? '', r.tool_name, r.text]);
const cost = (total: string, inT: number, outT: number, api: number, tools: number) =>
  `cost: $${total} total; claude-opus-5-5 $${total} in=${inT} out=${outT}; api ${api} ms, tools ${tools} ms; lines +0 -0`;
const BUILT_IN_TOOLS = 'tools offered: Agent, Bash, Edit, ListAgents, Read, ReportFindings, ScheduleWakeup, Skill, ToolSearch, Workflow, DeferredToolPlaceholder, Write';
const DEFERRED = 'tools offered (deferred): +CronCreate, +CronDelete, +CronList, +EnterWorktree, +ExitWorktree, +Monitor, +NotebookEdit, +SendMessage, +TaskStop, +WebFetch, +WebSearch';
const ENVIRONMENT = `environment: cwd=${CWD} platform=linux shell=bash os=Linux 6.18.44-fc-v782 git=yes worktree=no`;
const CONTEXT =
  'session context: gitStatus: This is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.\n\nCurrent branch: feature/live-run\n\nMain branch (you will usually use this for PRs): main\n\nGit user: Live Tester\n\nStatus:\n(clean)\n\nRecent commits:\n7661329 initial commit';

describe('live 2.1.332: a Bash call, then a resume appending to the same file', () => {
  let p: Parsed;
  beforeAll(async () => {
    p = await parse(TOOL_332);
  });

  it('gives the rows of docs/agents/claude-code.md, line by line', () => {
    expect(view(p.rows)).toEqual([
      [3, 'user', '', '', PROMPT],
      [4, 'system', 'environment', '', ENVIRONMENT],
      [6, 'system', 'tools_offered', '', DEFERRED],
      [10, 'system', 'session_context', '', CONTEXT],
      [16, 'system', 'system_prompt', '', systemPromptOf(p.lines, 16)],
      [16, 'system', 'tools_offered', '', BUILT_IN_TOOLS],
      [19, 'system', 'model', '', 'model: claude-opus-5-5 (requested, source=sdk effort=medium)'],
      [21, 'assistant', '', '', 'I will run the marker command.'],
      [22, 'tool_use', '', 'Bash', 'echo aitrail-live-marker'],
      [25, 'tool_result', '', 'Bash', 'aitrail-live-marker'],
      [25, 'system', 'permission_decision', 'Bash', 'permission decision: accept source=config reason=rule rule=cliArg'],
      [30, 'assistant', '', '', 'Done: aitrail-live-marker seen.'],
      [32, 'system', 'cost', '', cost('0.000816', 84, 24, 466, 339)],
      [36, 'user', '', '', 'Thanks. Summarise in one line what you just did.'],
      [38, 'assistant', '', '', 'Hello from the stub model. Nothing to run for this one.'],
      [40, 'system', '', '', 'mode: normal'],
      [41, 'system', 'cost', '', cost('0.001224', 126, 36, 542, 339)],
    ]);
  });

  it('one system prompt row for the session, though three requests were sent and a second process resumed it', () => {
    expect(p.lines.filter((o) => o.type === 'api-request')).toHaveLength(3);
    expect(p.rows.filter((r) => r.tag === 'system_prompt')).toHaveLength(1);
    expect(p.rows.find((r) => r.tag === 'system_prompt')?.text).toContain('# Environment');
  });

  it('every line gives rows or one counted skip; the blobs, latches and snapshots are counted, not rows; nothing unknown', () => {
    const withRows = new Set(p.rows.map((r) => r.source_line));
    for (let n = 1; n <= p.lines.length; n++) expect(withRows.has(n) !== p.skipped.has(n), `line ${n} ${String(p.lines[n - 1].type)}`).toBe(true);
    const skippedKinds = (type: string) => p.lines.flatMap((o, i) => (o.type === type ? [p.skipped.get(i + 1)] : []));
    expect(new Set(skippedKinds('api-request-blob'))).toEqual(new Set(['request message blob (the conversation as sent; counted, not repeated)']));
    expect(new Set(skippedKinds('atis-latch'))).toEqual(new Set(['request latch (plumbing)']));
    expect(p.skipped.get(13)).toBe('prompt snapshot (the request shape gives the system prompt)');
    expect(p.skipped.get(12)).toBe('remote session change without a url (commit attribution only)');
    expect(p.ctx.unknowns).toEqual([]);
    expect(p.ctx.warnings).toEqual([]);
  });

  it('dates every row, and carries session, cwd and branch; the requested model is the model row`s column', () => {
    for (const r of p.rows) {
      expect(r.timestamp_utc).toMatch(/^2026-12-01T01:23:\d\d\.\d{3}Z$/);
      expect([r.session_id, r.project_path, r.git_branch]).toEqual([TOOL_332, CWD, 'feature/live-run']);
    }
    expect(p.rows.find((r) => r.tag === 'model')?.model).toBe('claude-opus-5-5');
    // The shape's own time, not the preceding line's.
    expect(p.rows.find((r) => r.tag === 'system_prompt')?.timestamp_utc).toBe(String(p.lines[15].timestamp));
  });

  it('reports cwd and branch once each, with the time of the first line that names them', () => {
    expect(p.ctx.facts.filter((f) => f.key === 'cwd' || f.key === 'branch')).toEqual([
      { session_id: TOOL_332, key: 'cwd', value: CWD, priority: 1, at: '2026-12-01T01:23:46.392Z' },
      { session_id: TOOL_332, key: 'branch', value: 'feature/live-run', priority: 1, at: '2026-12-01T01:23:46.392Z' },
    ]);
  });
});

describe('live 2.1.332 with MCP servers: two fail, two connect mid-session', () => {
  let p: Parsed;
  beforeAll(async () => {
    p = await parse(MCP_332);
  });

  it('the deferred-tools rows name the pending servers, each failure once, and the MCP tools when they arrive', () => {
    const rows = p.rows.filter((r) => r.tag === 'tools_offered' || r.tag === 'mcp_failure');
    expect(view(rows)).toEqual([
      [6, 'system', 'tools_offered', '', `${DEFERRED}; MCP pending: echo, projecho`],
      [6, 'system', 'mcp_failure', '', "mcp server broken failed: ENOENT: no such file or directory, posix_spawn '/nonexistent/mcp-broken'"],
      [6, 'system', 'mcp_failure', '', 'mcp server localhttp failed: ECONNREFUSED: Unable to connect. Is the computer able to access the url?'],
      [16, 'system', 'tools_offered', '', BUILT_IN_TOOLS],
      [27, 'system', 'tools_offered', '', 'tools offered (deferred): +mcp__echo__echo_marker, +mcp__projecho__echo_marker'],
    ]);
    // Line 27 repeats both failures: no second row.
    expect(p.lines[26].attachment).toMatchObject({ failedMcpServers: [{ name: 'broken' }, { name: 'localhttp' }] });
  });

  it('reports the failures and the servers` tools to the inventory, never a config value', () => {
    expect(p.ctx.mcpServers).toEqual([
      { name: 'broken', scope: '', failure: { timestamp_utc: '2026-12-01T01:36:30.344Z', message: "ENOENT: no such file or directory, posix_spawn '/nonexistent/mcp-broken'" }, line: 6 },
      { name: 'localhttp', scope: '', failure: { timestamp_utc: '2026-12-01T01:36:30.344Z', message: 'ECONNREFUSED: Unable to connect. Is the computer able to access the url?' }, line: 6 },
      { name: 'echo', scope: '', tools: [{ name: 'echo_marker' }] },
      { name: 'projecho', scope: '', tools: [{ name: 'echo_marker' }] },
    ]);
  });

  it('gives the conversation rows as the plain run does', () => {
    expect(view(p.rows.filter((r) => ['user', 'assistant', 'tool_use', 'tool_result'].includes(r.turn_type)))).toEqual([
      [3, 'user', '', '', PROMPT],
      [21, 'assistant', '', '', 'I will run the marker command.'],
      [22, 'tool_use', '', 'Bash', 'echo aitrail-live-marker'],
      [25, 'tool_result', '', 'Bash', 'aitrail-live-marker'],
      [32, 'assistant', '', '', 'Hello from the stub model. Nothing to run for this one.'],
      [37, 'user', '', '', 'Say hello in one short sentence.'],
      [39, 'assistant', '', '', 'Hello from the stub model. Nothing to run for this one.'],
    ]);
    expect(p.ctx.unknowns).toEqual([]);
  });
});

describe('live 2.1.143 (contrast): none of the new kinds, the same conversation rows', () => {
  it('gives the rows line by line', async () => {
    const p = await parse(TOOL_143);
    expect(view(p.rows)).toEqual([
      [3, 'user', '', '', PROMPT],
      [5, 'assistant', '', '', 'I will run the marker command.'],
      [6, 'tool_use', '', 'Bash', 'echo aitrail-live-marker'],
      [7, 'tool_result', '', 'Bash', 'aitrail-live-marker'],
      [8, 'assistant', '', '', 'Done: aitrail-live-marker seen.'],
      [12, 'user', '', '', 'Thanks. Summarise in one line what you just did.'],
      [13, 'assistant', '', '', 'Hello from the stub model. Nothing to run for this one.'],
    ]);
    expect([...p.skipped].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 'queued prompt delivered as a user line'],
      [2, 'queue-operation dequeue'],
      [4, 'skill listing'],
      [9, 'last-prompt'],
      [10, 'queued prompt delivered as a user line'],
      [11, 'queue-operation dequeue'],
      [14, 'last-prompt'],
    ]);
    expect(p.ctx.unknowns).toEqual([]);
    expect(p.ctx.mcpServers).toEqual([]);
  });
});
