import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import type { Row } from '../../sdk/types.js';
import { copilotEventsParser } from './events-parser.js';
import { runParser } from './test-helpers/harness.js';

// Seed 001's 33 persisted types, every one in fixtures/homes/copilot-seed001 (the stringified
// encoding, generated from the native twin copilot-seed001-native; see their READMEs). Expected
// rows written by hand, line by line, from seed 001's sample payloads and seed 000's Parser plan
// table (with issue 11's rows for the six types the table lacks), not from a run of the parser.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
const SID = '013f2c3f-dbc1-4ce2-9e7a-83e4ea1c5c7d';
const REL = `.copilot/session-state/${SID}/events.jsonl`;
const W = 'C:\\Users\\AB000725';
const TOOLS = `${W}\\WirelessCar-Internal\\vwsre-tools`;
const PROJECT = `${W}\\vwsre-project`;
const at = (n: number) => (n < 38 ? `2026-04-30T01:45:${String(16 + n).padStart(2, '0')}.518Z` : `2026-04-30T02:10:0${n - 38}.000Z`);

type Expected = Pick<Row, 'turn_type' | 'text'> & Partial<Row>;
// Columns that differ from a line's defaults: the tracked model, and the working directory then in force.
const O47 = 'claude-opus-4.7';
const EXPECTED: [line: number, Expected][] = [
  [1, { turn_type: 'system', text: `session start: copilot 1.0.36-0 producer=copilot-agent cwd=${W}`, model: 'claude-opus-4.6', tag: 'session_start' }],
  [2, { turn_type: 'system', text: 'model: claude-opus-4.6 -> claude-opus-4.7 effort=high', tag: 'model' }],
  [3, { turn_type: 'system', text: 'system prompt: You are the GitHub Copilot CLI, a terminal assistant built by GitHub…' }],
  [4, { turn_type: 'user', text: 'Search Jira issues' }],
  [6, { turn_type: 'assistant', text: 'What would you like to search for in Jira? Please provide details…' }],
  [6, { turn_type: 'thinking', text: '<plaintext reasoning, e.g. for Claude Opus>' }],
  [7, { turn_type: 'tool_use', text: '{"intent":"Searching for SKILL.md"}', tool_name: 'report_intent', tool_use_id: 'tooluse_ycUA9DN2RHyjfBvngXDyNP' }],
  // The longer of content (13 characters) and detailedContent (10); the line's own model.
  [8, { turn_type: 'tool_result', text: 'Intent logged', model: 'claude-opus-4.6', tool_name: 'report_intent', tool_use_id: 'tooluse_ycUA9DN2RHyjfBvngXDyNP' }],
  [9, { turn_type: 'tool_use', text: '{"endpoint":"/rest/api/2/search","params":{"jql":"assignee = currentUser()"}}', tool_name: 'jira_wcar_api', tool_use_id: 'toolu_bdrk_01BhWurQKcRcxM9dPxvB6ZpZ', tag: 'external_tool' }],
  [10, { turn_type: 'tool_result', text: 'external tool completed', tool_name: 'jira_wcar_api', tool_use_id: 'toolu_bdrk_01BhWurQKcRcxM9dPxvB6ZpZ', tag: 'external_tool' }],
  [11, { turn_type: 'system', text: 'permission request: shell Get-Location intention=…', tool_use_id: 'toolu_bdrk_017YpdSD1yULiTUA2irZGVM9', tag: 'permission_request' }],
  [12, { turn_type: 'system', text: 'permission decision: approved source=-', tool_use_id: 'toolu_bdrk_017YpdSD1yULiTUA2irZGVM9', tag: 'permission_decision' }],
  [13, { turn_type: 'system', text: 'hook postToolUse start: {"sessionId":"0f4cd0bd-…","timestamp":"…"}', tag: 'hook' }],
  [14, { turn_type: 'system', text: 'hook postToolUse end: success=true output={}', tag: 'hook' }],
  [15, { turn_type: 'system', text: 'subagent.started: explore', tool_use_id: 'tooluse_9PlhA1d5U2gMJAykjv14dn', tag: 'notice' }],
  [16, { turn_type: 'system', text: 'subagent.completed: explore', tool_use_id: 'tooluse_4rJxVF9wiJh1gPgCGQvviA', tag: 'notice' }],
  [18, { turn_type: 'system', text: 'agent mode: interactive -> plan', tag: 'agent_mode' }],
  // Allow-all on, a request made while it was on (its mode, the first shown), allow-all off.
  [19, { turn_type: 'system', text: 'permission mode: allow-all off -> on', tag: 'permission_mode' }],
  [20, { turn_type: 'system', text: 'permission request: url https://jira.example.com/rest/api/2/search', tool_use_id: 'toolu_bdrk_02', tag: 'permission_request' }],
  [20, { turn_type: 'system', text: 'permission mode: allow-all agent=plan', tag: 'permission_mode' }],
  [21, { turn_type: 'system', text: 'permission decision: approved source=host_policy', tool_use_id: 'toolu_bdrk_02', tag: 'permission_decision' }],
  [22, { turn_type: 'system', text: 'permission mode: allow-all on -> off', tag: 'permission_mode' }],
  // Off is manual: the manual request after it gives no mode row (it would if allow-all were still tracked).
  [23, { turn_type: 'system', text: 'permission request: shell Get-ChildItem', tool_use_id: 'toolu_bdrk_03', tag: 'permission_request' }],
  [24, { turn_type: 'system', text: 'permission decision: denied-interactively-by-user source=human_response', tool_use_id: 'toolu_bdrk_03', tag: 'permission_decision' }],
  [25, { turn_type: 'system', text: 'plan changed: create', tag: 'plan' }],
  [27, { turn_type: 'system', text: 'workspace file create: describe_tables.py', tag: 'workspace_file' }],
  [28, { turn_type: 'system', text: 'compaction start: systemTokens=9635 conversationTokens=113044 toolDefinitionsTokens=12663', tag: 'compaction' }],
  [29, { turn_type: 'system', text: "compaction summary: \n\n<overview>\nThe user is an SRE for WirelessCar's VW CN ops…\n</overview>\n", tag: 'compaction' }],
  [30, { turn_type: 'system', text: 'history truncated by system: 44 messages and 38479 tokens removed (227 -> 183 messages, 194428 -> 155949 tokens, limit 168000)', tag: 'truncation' }],
  [31, { turn_type: 'system', text: 'session.task_complete: Completed both requested features:\n\n1. **Home page partition…**', tag: 'notice' }],
  [32, { turn_type: 'system', text: 'system.notification: <system_notification>\nAgent "rnp-activation-reasons" (explore)…</system_notification>', tag: 'notice' }],
  [33, { turn_type: 'system', text: 'session.error: Execution failed: Error: Failed to get response from the AI model…', tag: 'notice' }],
  [34, { turn_type: 'system', text: "session.warning: MCP server 'github-mcp-server' is taking longer than expected…", tag: 'notice' }],
  [35, { turn_type: 'system', text: `session.info folder_trust: Folder ${W}\\playground has been added to trusted folders.`, tag: 'session_info' }],
  [36, { turn_type: 'system', text: 'abort: user_initiated', tag: 'notice' }],
  [37, { turn_type: 'system', text: 'session end: routine files modified: -', tag: 'session_end' }],
  // The resume: its directory (outside git: no branch) and its selectedModel for the rows after it.
  [38, { turn_type: 'system', text: 'session resumed', model: 'claude-opus-4.6', tag: 'session_resume' }],
  [39, { turn_type: 'user', text: 'Summarise the open issues', model: 'claude-opus-4.6' }],
];

/** The directory and branch in force at a line: the start's, then the context change (26), then the resume (38). */
function place(line: number): { project_path: string; git_branch: string } {
  if (line >= 38) return { project_path: PROJECT, git_branch: '' };
  if (line >= 26) return { project_path: TOOLS, git_branch: 'dev-may-3' };
  return { project_path: W, git_branch: '' };
}

function expectedRows(): Row[] {
  return EXPECTED.map(([line, e]) => {
    const row: Row = { timestamp_utc: at(line), session_id: SID, ...place(line), model: line < 2 ? 'claude-opus-4.6' : O47, tool_name: '', tool_use_id: '', source_line: line, ...e } as Row;
    return row;
  });
}

async function parse(home: string) {
  return runParser(copilotEventsParser, artifactFromFile(join(ROOT, 'fixtures', 'homes', home), REL), true);
}

describe("seed 001's 33 persisted types (fixture homes copilot-seed001 and its native twin)", () => {
  it('the fixture holds each of the 33 types, and the stringified home is the native one in seed 001 encoding', () => {
    const lines = (home: string) => readFileSync(join(ROOT, 'fixtures', 'homes', home, REL), 'utf8').trimEnd().split('\n');
    const str = lines('copilot-seed001');
    expect(new Set(str.map((l) => JSON.parse(l).type)).size).toBe(33);
    // Every data value a string or null in the stringified home, nothing but the encoding differs.
    for (const l of str) for (const v of Object.values(JSON.parse(l).data)) expect(v === null || typeof v === 'string').toBe(true);
    expect(str.length).toBe(lines('copilot-seed001-native').length);
  });

  for (const home of ['copilot-seed001', 'copilot-seed001-native']) {
    it(`${home}: every line gives its row or its counted skip, as written from the seeds`, async () => {
      const run = await parse(home);
      expect(run.rows.map(({ tag: _t, ...r }) => r)).toEqual(expectedRows().map(({ tag: _t, ...r }) => r));
      expect(run.rows.map((r) => r.tag)).toEqual(expectedRows().map((r) => r.tag));
      expect(run.unknowns).toEqual([]);
      expect(run.warnings).toEqual([]);
      // Rows plus the skips of the table (turn start and end, the context change) account for every line.
      const withRow = new Set(run.rows.map((r) => r.source_line));
      expect([...Array(39).keys()].map((i) => i + 1).filter((n) => !withRow.has(n))).toEqual([5, 17, 26]);
    });

    it(`${home}: reports every directory and branch with the time it took effect`, async () => {
      const run = await parse(home);
      expect(run.facts.filter((f) => f.key === 'cwd' || f.key === 'branch').map((f) => [f.key, f.value, f.at])).toEqual([
        ['cwd', W, at(1)],
        // The start is outside git: no branch for the rows before the move into one.
        ['branch', '', at(1)],
        ['cwd', TOOLS, at(26)],
        ['branch', 'dev-may-3', at(26)],
        ['cwd', PROJECT, at(38)],
        // A directory outside git: no branch from the resume on.
        ['branch', '', at(38)],
      ]);
    });
  }
});
