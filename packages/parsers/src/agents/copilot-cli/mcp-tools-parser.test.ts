import { describe, expect, it } from 'vitest';
import { copilotMcpToolsParser } from './mcp-tools-parser.js';
import { parseText } from './test-helpers/harness.js';

const REL = 'AppData/Local/copilot/mcp-tools/0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0.json';
// The observed shape (seed: Package and cache directory, Windows, bundled CLI 1.0.99-2).
const CACHE = {
  schemaVersion: 1,
  serverName: 'playwright',
  tools: [
    { name: 'browser_navigate', description: 'Navigate to a URL', annotations: { destructiveHint: true, openWorldHint: true, readOnlyHint: false, title: 'Navigate to a URL' }, inputSchema: { type: 'object' } },
    { name: 'browser_snapshot', description: 'Capture', annotations: { readOnlyHint: true, title: 'Page snapshot' }, inputSchema: { type: 'object' } },
  ],
  updatedAt: '2026-10-17T19:59:20.000Z',
};

describe('mcp-tools parser', () => {
  it('reports the server and its tools with their annotations, and one row at updatedAt', async () => {
    const { rows, mcpServers, warnings } = await parseText(copilotMcpToolsParser, REL, JSON.stringify(CACHE));
    expect(mcpServers).toEqual([
      {
        name: 'playwright',
        scope: '',
        tools: [
          { name: 'browser_navigate', annotations: { destructiveHint: true, openWorldHint: true, readOnlyHint: false, title: 'Navigate to a URL' } },
          { name: 'browser_snapshot', annotations: { readOnlyHint: true, title: 'Page snapshot' } },
        ],
      },
    ]);
    expect(rows.map((r) => [r.timestamp_utc, r.turn_type, r.text, r.tag, r.session_id])).toEqual([
      ['2026-10-17T19:59:20.000Z', 'system', 'MCP tools cached: playwright: 2 tools: browser_navigate, browser_snapshot', 'mcp_tools', ''],
    ]);
    expect(warnings).toEqual([]);
  });

  it('an epoch updatedAt is read; none falls back to the file time, tagged time_file; unnamed tools are left out with a warning', async () => {
    const epoch = await parseText(copilotMcpToolsParser, REL, JSON.stringify({ ...CACHE, updatedAt: 1792267160000 }));
    expect(epoch.rows[0].timestamp_utc).toBe('2026-10-17T19:59:20.000Z');
    const none = await parseText(copilotMcpToolsParser, REL, JSON.stringify({ serverName: 's', tools: [{ name: 'a' }, { description: 'x' }, 'b'] }), { mtime: '2026-10-17T20:00:00.000Z' });
    expect(none.rows.map((r) => [r.timestamp_utc, r.text, r.tag])).toEqual([['2026-10-17T20:00:00.000Z', 'MCP tools cached: s: 3 tools: a', 'time_file']]);
    expect(none.warnings.map((w) => w.message)).toEqual(['MCP tool cache: 2 tool entries have no name and are left out']);
  });

  it('a file that is not a tool cache is one unreadable row, or a warning when it names no server', async () => {
    expect((await parseText(copilotMcpToolsParser, REL, '[1,2]')).rows.map((r) => r.tag)).toEqual(['unreadable']);
    const other = await parseText(copilotMcpToolsParser, REL, '{"x": 1}');
    expect([other.rows, other.mcpServers, other.warnings.length]).toEqual([[], [], 1]);
  });
});
