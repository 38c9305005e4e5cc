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

describe('a working directory as of the row (DESIGN, wave 2)', () => {
  const at = (s: string) => `2026-10-01T09:00:${s}.000Z`;
  const timed = () => {
    const f = new FactStore();
    // Reported out of time order (a resume read before the start), repeats included.
    f.report(S, { session_id: 's1', key: 'cwd', value: '/b', priority: 1, at: at('20') });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/a', priority: 1, at: at('10') });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/a', priority: 1, at: at('15') });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/c', priority: 1, at: at('30') });
    return f;
  };

  it('takes the latest report at or before the time, and the first report for earlier rows', () => {
    const f = timed();
    expect(['05', '10', '19', '20', '29', '30', '59'].map((t) => f.asOf(S, 'cwd', at(t)))).toEqual(['/a', '/a', '/a', '/b', '/b', '/c', '/c']);
  });

  it('gives an undated row the winning value, and fills rows through fillFromFacts', () => {
    const f = timed();
    expect(f.asOf(S, 'cwd', '')).toBe('/c');
    expect(fillFromFacts({ ...row(), timestamp_utc: at('25') }, f, S).project_path).toBe('/b');
    expect(fillFromFacts(row(), f, S).project_path).toBe('/c');
  });

  it('lists every directory once, in time order', () => {
    expect(timed().values(S, 'cwd')).toEqual(['/a', '/b', '/c']);
  });

  it('lets timed reports lead only at the winning priority (a fallback never overrides the log)', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-log', priority: 1 });
    f.report(S, { session_id: 's1', key: 'cwd', value: '/from-store', priority: 3, at: at('10') });
    expect(f.asOf(S, 'cwd', at('20'))).toBe('/from-log');
    expect(f.values(S, 'cwd')).toEqual([]);
    // A better timed history replaces a worse one.
    f.report(S, { session_id: 's1', key: 'cwd', value: '/log-timed', priority: 1, at: at('15') });
    expect(f.asOf(S, 'cwd', at('20'))).toBe('/log-timed');
  });

  it('keeps a history for branch too, and none for keys that are not places', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'branch', value: 'main', priority: 1, at: at('10') });
    f.report(S, { session_id: 's1', key: 'branch', value: 'fix', priority: 1, at: at('20') });
    f.report(S, { session_id: 's1', key: 'name', value: 'n1', priority: 1, at: at('10') });
    expect(fillFromFacts({ ...row(), timestamp_utc: at('12') }, f, S).git_branch).toBe('main');
    expect(f.values(S, 'name')).toEqual([]);
  });

  it('an empty timed value is "none from then": later rows get no branch, earlier ones keep theirs, and it is never listed', () => {
    const f = new FactStore();
    f.report(S, { session_id: 's1', key: 'branch', value: '', priority: 1, at: at('05') });
    f.report(S, { session_id: 's1', key: 'branch', value: 'dev', priority: 1, at: at('10') });
    f.report(S, { session_id: 's1', key: 'branch', value: '', priority: 1, at: at('20') });
    f.report(S, { session_id: 's1', key: 'branch', value: '', priority: 1 });
    expect(['01', '05', '12', '25'].map((t) => fillFromFacts({ ...row(), timestamp_utc: at(t) }, f, S).git_branch)).toEqual(['', '', 'dev', '']);
    expect(f.get(S, 'branch')).toBe('dev');
    expect(f.values(S, 'branch')).toEqual(['dev']);
  });
});
