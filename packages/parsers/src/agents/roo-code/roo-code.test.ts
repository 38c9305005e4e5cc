import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { rooCodePlugin } from './index.js';

// Roo Code through the Cline family's parsers: the Roo task of fixtures/homes/cline-family (a
// reasoning item, a context condense), its index files, MCP settings, globalState and CLI history.

const HOME = `${HOMES}cline-family`;
const by = Object.fromEntries(rooCodePlugin.parsers.map((p) => [p.name, p]));
const EXT = '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline';
const ID = '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b';
const TASK = `${EXT}/tasks/${ID}`;
const at = (ms: number) => new Date(1767484800000 + ms).toISOString();
const brief = (rows: Row[]) => rows.map((r) => [r.source_line, r.turn_type, r.tag ?? '', r.tool_name, r.text.split('\n')[0]]);
const homes = tempHomes('roo');

describe('roo-code: paths', () => {
  it('claims Roo files in any editor (the publisher id in any case), the Roo CLI shim store and project MCP files, not Cline or Kilo files', () => {
    const cases: [string, string | undefined][] = [
      [`${TASK}/ui_messages.json`, 'ui-messages'],
      ['Library/Application Support/Code/User/globalStorage/RooVeterinaryInc.roo-cline/tasks/x/api_conversation_history.json', 'api-history'],
      [`${TASK}/history_item.json`, 'task-index'],
      [`${EXT}/tasks/_index.json`, 'task-index'],
      [`${EXT}/settings/mcp_settings.json`, 'mcp-settings'],
      ['.vscode-mock/global-storage/tasks/x/ui_messages.json', 'ui-messages'],
      ['.vscode-mock/global-storage/global-state.json', 'global-state'],
      ['.roo/cli-history.json', 'cli-history'],
      ['.roo/mcp.json', 'mcp-settings'],
      [`${EXT}/settings/custom_modes.yaml`, undefined],
      ['.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json', undefined],
      ['.config/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json', undefined],
    ];
    for (const [rel, name] of cases) expect(rooCodePlugin.parsers.find((p) => p.wants(rel))?.name, rel).toBe(name);
    expect(rooCodePlugin.parsers.every((p) => p.agent === 'roo-code')).toBe(true);
  });
});

describe('roo-code: the spec-shaped task', () => {
  it('ui_messages.json row by row: the prompt, requests with their protocol, reasoning, approvals, the condense, completion', async () => {
    const { rows, ctx } = await run(by['ui-messages'], HOME, `${TASK}/ui_messages.json`);
    expect(brief(rows)).toEqual([
      [1, 'user', '', '', 'Add a README section about installation.'],
      [2, 'system', 'api_request', '', 'api request: tokensIn=900 tokensOut=60 cost=0.004 protocol=anthropic'],
      [3, 'thinking', '', '', 'The README lacks an install section.'],
      [4, 'system', 'permission_request', 'readFile', 'approval requested: readFile {"content":"/home/dev/site/README.md","isOutsideWorkspace":false,"path":"README.md","tool":"readFile"}'],
      [5, 'system', 'api_request', '', 'api request: tokensIn=950 tokensOut=40 cost=0.003 protocol=anthropic'],
      [6, 'system', 'compaction', '', 'context condensed (12000 → 3000 tokens): The user wants an installation section in README.md.'],
      [7, 'system', 'permission_request', 'appliedDiff', 'approval requested: appliedDiff {"diff":"<<<<<<< SEARCH\\n# Site\\n=======\\n# Site\\n\\n## Installation\\n\\nnpm install\\n>>>>>>> REPLACE","path":"README.md","tool":"appliedDiff"}'],
      [8, 'system', 'api_request', '', 'api request: tokensIn=980 tokensOut=30 cost=0.002 protocol=anthropic'],
      [9, 'assistant', 'completion', '', 'Added an Installation section.'],
    ]);
    expect(rows[0]).toMatchObject({ session_id: ID, timestamp_utc: at(10) });
    expect(ctx.facts[0]).toEqual({ session_id: ID, key: 'cwd', value: '/home/dev/site', priority: 1, at: at(500) });
  });

  it('api_conversation_history.json: the tool calls and results (the reasoning item and the summary are the UI log\'s)', async () => {
    const { rows } = await run(by['api-history'], HOME, `${TASK}/api_conversation_history.json`);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.timestamp_utc])).toEqual([
      [3, 'tool_use', 'read_file', 'toolu_R1', at(1500)],
      [4, 'tool_result', 'read_file', 'toolu_R1', at(2900)],
      [6, 'tool_use', 'apply_diff', 'toolu_R2', at(5000)],
      [7, 'tool_result', 'apply_diff', 'toolu_R2', at(8900)],
    ]);
  });

  it('history_item.json and tasks/_index.json: the same HistoryItem, its workspace as the cwd', async () => {
    for (const rel of [`${TASK}/history_item.json`, `${EXT}/tasks/_index.json`]) {
      const { rows, ctx } = await run(by['task-index'], HOME, rel);
      expect(rows.map((r) => [r.turn_type, r.tag, r.session_id]), rel).toEqual([
        ['system', 'session_metadata', ID],
        ['user', 'history', ID],
      ]);
      expect(rows[0].text).toContain('mode=code status=completed');
      expect(ctx.facts.map((f) => [f.key, f.value]), rel).toEqual([['cwd', '/home/dev/site']]);
    }
  });
});

describe('roo-code: settings', () => {
  it('mcp_settings.json: alwaysAllow as a permission row, the env token to the inventory only', async () => {
    const { rows, ctx } = await run(by['mcp-settings'], HOME, `${EXT}/settings/mcp_settings.json`);
    expect(rows.map((r) => r.text)).toEqual(['setting MCP fs auto-approves: read_file']);
    expect(ctx.mcpServers.map((s) => [s.name, s.env_keys, s.secrets?.map((x) => x.where)])).toEqual([['fs', ['API_TOKEN'], ['env:API_TOKEN']]]);
    expect(JSON.stringify(rows)).not.toContain('roo-fixture-secret');
  });

  it("state.vscdb: Roo's row (its publisher id in mixed case) gives the auto-approve switches and allowed commands", async () => {
    const { rows } = await run(by['global-state'], copyHome('cline-family', homes.make()), '.config/Code/User/globalStorage/state.vscdb');
    expect(rows.map((r) => [r.tag, r.text])).toEqual([
      ['permission_mode', 'setting mode=code'],
      ['permission_setting', 'setting autoApprovalEnabled=true'],
      ['permission_setting', 'setting alwaysAllowReadOnly=true'],
      ['permission_setting', 'setting alwaysAllowExecute=true'],
      ['permission_setting', 'setting allowedCommands=["npm test","git log"]'],
      ['model_setting', 'setting currentApiConfigName=default'],
    ]);
  });

  it('~/.roo/cli-history.json: each typed prompt once, untimed (the file keeps no time)', async () => {
    const { rows } = await run(by['cli-history'], HOME, '.roo/cli-history.json');
    expect(rows.map((r) => [r.source_line, r.turn_type, r.tag, r.text, r.timestamp_utc])).toEqual([
      [1, 'user', 'history', 'Add a README section about installation.', ''],
      [2, 'user', 'history', 'explain the build', ''],
    ]);
  });

  it('hostile: a cut index, a history of wrong types', async () => {
    const home = homes.make();
    writeFiles(home, { [`${EXT}/tasks/_index.json`]: '{"version":1,"entries":[{"id":"a","task":"first","ts":1767484800000},{"id":"b","ta', '.roo/cli-history.json': '{"version":1,"entries":[42,null,"ok"]}' });
    const idx = await run(by['task-index'], home, `${EXT}/tasks/_index.json`);
    expect(idx.rows.find((r) => r.turn_type === 'user')?.text).toBe('first');
    expect(idx.rows.at(-1)?.tag).toBe('bad_line');
    const cli = await run(by['cli-history'], home, '.roo/cli-history.json');
    expect(cli.rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['ok']);
    expect(cli.rows.filter((r) => r.tag === 'bad_line').length).toBe(2);
  });
});
