import { makeRow, type TurnType } from '@aitrail/parsers';
import { describe, expect, it } from 'vitest';
import { FactStore, sessionKey } from './facts.js';
import type { TimelineRow } from './row.js';
import { SessionAccumulator } from './sessions.js';

let ord = 0;
function row(turn: TurnType, text: string, project_path: string, tag?: string): TimelineRow {
  const r = makeRow(turn, text, { session_id: 's1', project_path, timestamp_utc: '2026-10-19T12:00:00.000Z', ...(tag ? { tag } : {}) });
  return { ...r, host: 'h', user: 'u', agent: 'copilot-cli', source_file: 'f', ord: ord++ };
}

describe('session records', () => {
  it('a session that ran in its scratch directory (a VS Code worktree) belongs to the other directory it names', () => {
    const acc = new SessionAccumulator();
    const facts = new FactStore();
    facts.report(sessionKey('h', 'u', 'copilot-cli', 's1'), { session_id: 's1', key: 'cwd', value: '/p.worktrees/b', priority: 1, at: '2026-10-19T12:00:00.000Z' });
    acc.add(row('user', 'fix it', '/p.worktrees/b'), true);
    acc.add(row('system', 'VS Code session: origin=vscode project=/p', '/p', 'vscode_session'), true);
    acc.add(row('system', 'scratch directory: /p.worktrees/b (VS Code worktree of /p)', '/p.worktrees/b', 'scratch_directory'), true);
    const [rec] = acc.finish(facts, () => true);
    expect([rec.project_path, rec.scratch_directory, rec.project_paths]).toEqual(['/p', '/p.worktrees/b', ['/p.worktrees/b', '/p']]);
  });

  it('a session that only ever had its scratch directory keeps it (a Copilot Desktop pre-created session)', () => {
    const acc = new SessionAccumulator();
    acc.add(row('system', 'scratch directory: /pool', '/pool', 'scratch_directory'), true);
    const [rec] = acc.finish(new FactStore(), () => true);
    expect([rec.project_path, rec.scratch_directory]).toEqual(['/pool', '/pool']);
  });
});
