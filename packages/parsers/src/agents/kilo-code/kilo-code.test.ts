import { describe, expect, it } from 'vitest';
import { copyHome, HOMES, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { kiloCodePlugin } from './index.js';

// Kilo Code's legacy extension through the Cline family's parsers: the Kilo task of
// fixtures/homes/cline-family (a command with its output), its empty MCP settings, its state row.

const HOME = `${HOMES}cline-family`;
const by = Object.fromEntries(kiloCodePlugin.parsers.map((p) => [p.name, p]));
const EXT = '.config/Code/User/globalStorage/kilocode.kilo-code';
const ID = '7a6b5c4d-3e2f-4a10-9b8c-7d6e5f4a3b2c';
const TASK = `${EXT}/tasks/${ID}`;
const at = (ms: number) => new Date(1767571200000 + ms).toISOString();
const homes = tempHomes('kilo');

describe('kilo-code: the legacy extension', () => {
  it('claims kilocode.kilo-code files and project .kilocode/mcp.json only', () => {
    expect(by['ui-messages'].wants(`${TASK}/ui_messages.json`)).toBe(true);
    expect(by['mcp-settings'].wants('.kilocode/mcp.json')).toBe(true);
    expect(kiloCodePlugin.parsers.some((p) => p.wants('.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/x/ui_messages.json'))).toBe(false);
    expect(kiloCodePlugin.parsers.every((p) => p.agent === 'kilo-code')).toBe(true);
  });

  it('the task: the UI log row by row (the command\'s request, its output in the API history), the API history\'s call and result', async () => {
    const ui = await run(by['ui-messages'], HOME, `${TASK}/ui_messages.json`);
    expect(ui.rows.map((r) => [r.source_line, r.turn_type, r.tag ?? '', r.tool_name, r.text, r.timestamp_utc])).toEqual([
      [1, 'user', '', '', 'How big is the repository?', at(10)],
      [2, 'system', 'api_request', '', 'api request: tokensIn=300 tokensOut=20 cost=0.001', at(400)],
      [3, 'system', 'permission_request', 'execute_command', 'approval requested: execute_command du -sh .', at(1000)],
      [5, 'system', 'api_request', '', 'api request: tokensIn=320 tokensOut=15 cost=0.001', at(2500)],
      [6, 'assistant', 'completion', '', 'The repository takes 4.0 MB.', at(3000)],
    ]);
    expect(ui.ctx.facts.map((f) => [f.key, f.value])).toEqual([['cwd', '/home/dev/kilo-demo']]);
    const api = await run(by['api-history'], HOME, `${TASK}/api_conversation_history.json`);
    expect(api.rows.map((r) => [r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.text.split('\n')[0], r.timestamp_utc])).toEqual([
      [2, 'tool_use', 'execute_command', 'toolu_K1', 'du -sh .', at(1000)],
      [3, 'tool_result', 'execute_command', 'toolu_K1', "Command executed in terminal within working directory '/home/dev/kilo-demo'. Exit code: 0", at(2400)],
    ]);
  });

  it('an empty mcp_settings.json gives no row and no server; the state row gives the mode and write approval', async () => {
    const mcp = await run(by['mcp-settings'], HOME, `${EXT}/settings/mcp_settings.json`);
    expect([mcp.rows, mcp.ctx.mcpServers]).toEqual([[], []]);
    const st = await run(by['global-state'], copyHome('cline-family', homes.make()), '.config/Code/User/globalStorage/state.vscdb');
    expect(st.rows.map((r) => r.text)).toEqual(['setting mode=architect', 'setting alwaysAllowWrite=true']);
  });
});

describe('kilo-code: the CLI (OpenCode family, real 7.7.7 kilo.db of fixtures/homes/opencode-live)', () => {
  it('registers the CLI parsers with the cli- prefix beside the extension\'s, each claiming only its own files', () => {
    expect(kiloCodePlugin.parsers.map((p) => p.name).filter((n) => n.startsWith('cli-'))).toEqual(['cli-db', 'cli-storage', 'cli-config', 'cli-model-state']);
    expect(kiloCodePlugin.parsers.filter((p) => p.wants('.local/share/kilo/kilo.db')).map((p) => p.name)).toEqual(['cli-db']);
    expect(kiloCodePlugin.parsers.filter((p) => p.wants('.config/kilo/kilo.json')).map((p) => p.name)).toEqual(['cli-config']);
    expect(kiloCodePlugin.parsers.some((p) => p.wants('.local/share/opencode/opencode.db'))).toBe(false);
    expect(new Set(kiloCodePlugin.parsers.map((p) => p.name)).size).toBe(kiloCodePlugin.parsers.length);
  });

  it('the real kilo.db: both typed prompts, as OpenCode stored them, in their sessions and project', async () => {
    const { rows } = await run(by['cli-db'], copyHome('opencode-live', homes.make()), '.local/share/kilo/kilo.db');
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => [r.session_id, r.text, r.project_path])).toEqual([
      ['ses_dd0548be9ffeaDUif6AQtTYm0y', '"Thanks. Summarise in one line what you just did."', '/home/live-kilo-code/proj'],
      ['ses_dd05655f5ffe98h3F423wRiLxU', '"Say hello in one short sentence."', '/home/live-kilo-code/proj'],
    ]);
  });
});
