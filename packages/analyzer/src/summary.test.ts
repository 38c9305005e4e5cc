import { describe, expect, it } from 'vitest';
import { formatSummary } from './summary.js';

describe('the closing summary', () => {
  it('prints one block per host/user/agent, the totals and where the outputs are', () => {
    const text = formatSummary(
      [{ host: 'vm', user: 'sean', agent: 'copilot-cli', sessions: 1, prompts: 3, tool_calls: 2, permission_decisions: 1, rows: 30, models: ['auto', 'gpt-6.1-sol'], first_activity: '2026-10-01T09:00:00.000Z', last_activity: '2026-10-01T09:01:05.000Z' }],
      '/tmp/out',
      { rows: 30, duplicates: 6, warnings: 0, integrityOk: false },
    );
    expect(text.split('\n')).toEqual([
      'vm / sean / copilot-cli: 1 session, 3 prompts, 2 tool calls, 1 permission decision',
      '  models: auto, gpt-6.1-sol',
      '  activity: 2026-10-01T09:00:00.000Z .. 2026-10-01T09:01:05.000Z',
      '30 timeline rows, 6 duplicates dropped (duplicates.jsonl), 0 parse warnings; integrity FAILED (inventory.json)',
      'Outputs in /tmp/out: timeline.csv, timeline.jsonl, sessions.jsonl, inventory.json, duplicates.jsonl',
    ]);
  });

  it('names the report outputs when they were written', () => {
    const last = formatSummary([], '/o', { rows: 0, duplicates: 0, warnings: 0, integrityOk: true, reports: true }).split('\n').at(-1);
    expect(last).toBe('Outputs in /o: timeline.csv, timeline.jsonl, sessions.jsonl, inventory.json, duplicates.jsonl, report.html, timeline.sqlite (aitrail serve), timeline.timesketch.jsonl');
  });

  it('says so when nothing was found', () => {
    expect(formatSummary([], '/o').split('\n')[0]).toBe('No agent activity found.');
  });

  it('lists agents collected with no row (catalog-only ones), and does not say nothing was found', () => {
    const unparsed = [
      { host: 'h', user: 'dev', agent: 'windsurf', artifacts: 22, session_files: 2 },
      { host: 'h', user: '', agent: 'zed', artifacts: 1, session_files: 0 },
    ];
    expect(formatSummary([], '/o', { rows: 0, duplicates: 0, warnings: 0, integrityOk: true, unparsed }).split('\n').slice(0, 3)).toEqual([
      'No timeline rows.',
      'h / dev / windsurf: collected, no rows: 22 files, 2 session files (inventory.json)',
      'h / (system) / zed: collected, no rows: 1 file (inventory.json)',
    ]);
  });
});
