import { describe, expect, it } from 'vitest';
import { parseText } from './test-helpers/harness.js';
import { copilotVscodeMetadataParser } from './vscode-metadata-parser.js';

const SID = '5e55a0a1-0000-4000-8000-0000000000d1';
const REL = `.copilot/session-state/${SID}/vscode.metadata.json`;
const parse = (v: unknown, mtime = '2026-10-19T12:00:00.000Z') => parseText(copilotVscodeMetadataParser, REL, JSON.stringify(v, null, 2), { mtime });

// The shapes of ChatSessionMetadataFile and ChatSessionWorktreePropertiesV2 (microsoft/vscode,
// extensions' chatSessions common/chatSessionMetadataStore.ts and chatSessionWorktreeService.ts).
const WORKTREE = {
  version: 2,
  baseCommit: '3e81ccf7',
  branchName: 'copilot/fix-date-test',
  baseBranchName: 'main',
  repositoryPath: '/home/ann/proj',
  worktreePath: '/home/ann/proj.worktrees/copilot-fix-date-test',
  autoCommit: true,
};

describe('vscode.metadata.json parser', () => {
  it('a worktree session: VS Code drove it, the repository is the project, the worktree the scratch directory', async () => {
    const { rows, facts } = await parse({ worktreeProperties: WORKTREE, origin: 'vscode', customTitle: 'Fix the date test', firstUserMessage: 'fix the failing test', writtenToDisc: true, created: 1792411200000, modified: 1792411260000 });
    expect(rows.map((r) => [r.timestamp_utc, r.session_id, r.project_path, r.text, r.tag])).toEqual([
      ['2026-10-19T12:00:00.000Z', SID, '/home/ann/proj', 'VS Code session: origin=vscode project=/home/ann/proj title=Fix the date test', 'vscode_session'],
      ['2026-10-19T12:00:00.000Z', SID, '/home/ann/proj.worktrees/copilot-fix-date-test', 'scratch directory: /home/ann/proj.worktrees/copilot-fix-date-test (VS Code worktree of /home/ann/proj on copilot/fix-date-test)', 'scratch_directory'],
    ]);
    expect(facts).toEqual([{ session_id: SID, key: 'client', value: 'vscode', priority: 1 }]);
  });

  it('a workspace-folder session opened in VS Code but created elsewhere (origin other), forked, with an additional worktree workspace', async () => {
    const { rows, facts } = await parse({
      workspaceFolder: { folderPath: '/home/ann/site', timestamp: 1792411200000 },
      origin: 'other',
      kind: 'forked',
      parentSessionId: '5e55a0a1-0000-4000-8000-0000000000d0',
      additionalWorkspaces: [{ workspaceFolder: { folderPath: '/home/ann/lib', timestamp: 1 } }, { worktreeProperties: { ...WORKTREE, repositoryPath: '/home/ann/api', worktreePath: '/home/ann/api.worktrees/x' } }],
    });
    expect(rows.map((r) => [r.session_id, r.project_path, r.text, r.tag])).toEqual([
      [SID, '/home/ann/site', 'VS Code session: origin=other project=/home/ann/site kind=forked parent=5e55a0a1-0000-4000-8000-0000000000d0', 'time_file'],
      [SID, '/home/ann/lib', 'VS Code additional workspace: /home/ann/lib', 'time_file'],
      [SID, '/home/ann/api', 'VS Code additional workspace: /home/ann/api', 'time_file'],
      ['', '/home/ann/api.worktrees/x', 'scratch directory: /home/ann/api.worktrees/x (VS Code worktree of /home/ann/api on copilot/fix-date-test)', 'scratch_directory'],
    ]);
    // No created/modified: the file's time, said so by the tag.
    expect(rows[0].timestamp_utc).toBe('2026-10-19T12:00:00.000Z');
    expect(facts).toEqual([]);
  });

  it('{} (a session VS Code only looked at) gives nothing; a bad time warns; garbage is one unreadable row', async () => {
    expect((await parse({})).rows).toEqual([]);
    const bad = await parse({ origin: 'vscode', created: 'yesterday' });
    expect(bad.rows[0].tag).toBe('time_file');
    expect(bad.warnings.map((w) => w.message)).toEqual(['vscode.metadata.json created: not a timestamp: "yesterday"']);
    const g = await parseText(copilotVscodeMetadataParser, REL, '{"origin": "vs');
    expect(g.rows.map((r) => r.tag)).toEqual(['unreadable']);
  });
});
