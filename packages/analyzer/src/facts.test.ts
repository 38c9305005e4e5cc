import { describe, expect, it } from 'vitest';
import { FactStore, fillFromFacts, sessionKey } from './facts.js';

const S = sessionKey('h', 'u', 'copilot-cli', 's1');
const row = (over: Partial<{ session_id: string; project_path: string; git_branch: string }> = {}) => ({ session_id: 's1', project_path: '', git_branch: '', ...over });

describe('session facts', () => {
  it('the lowest priority number wins whatever the report order (log over workspace.yaml over store over sidebar)', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-store', priority: 3 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-log', priority: 1 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-sidebar', priority: 4 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-workspace', priority: 2 });
    expect(f.get(S, 'cwd')).toBe('/from-log');
  });

  it('among equal priorities the latest report wins (the latest context.cwd)', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'cwd', value: '/first', priority: 1 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/second', priority: 1 });
    expect(f.get(S, 'cwd')).toBe('/second');
  });

  it('fills project_path and git_branch only when the row has none', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'cwd', value: '/srv/proj', priority: 1 });
    f.report(S, { session_id: 's1', key: 'branch', value: 'main', priority: 1 });
    expect(fillFromFacts(row(), f, S)).toMatchObject({ project_path: '/srv/proj', git_branch: 'main' });
    expect(fillFromFacts(row({ project_path: '/own', git_branch: 'dev' }), f, S)).toMatchObject({ project_path: '/own', git_branch: 'dev' });
    expect(fillFromFacts(row({ session_id: '' }), f, sessionKey('h', 'u', 'copilot-cli', ''))).toMatchObject({ project_path: '' });
  });

  it('facts never cross users, hosts or agents, and empty values are ignored', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'cwd', value: '/srv/proj', priority: 1 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '', priority: 0 });
    expect(f.get(S, 'cwd')).toBe('/srv/proj');
    expect(f.get(sessionKey('h', 'other', 'copilot-cli', 's1'), 'cwd')).toBe('');
    expect(f.get(sessionKey('h', 'u', 'claude-code', 's1'), 'cwd')).toBe('');
  });
});
