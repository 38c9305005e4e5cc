import { describe, expect, it } from 'vitest';
import { McpCollector } from './mcp-inventory.js';

describe('McpCollector tool caches', () => {
  it('merges the tool lists of several caches naming one server, by name, keeping the first file', () => {
    const c = new McpCollector();
    c.add({ name: 'gh', scope: 'user', command: 'npx' }, 'homes/u/.cursor/mcp.json');
    c.add({ name: 'gh', scope: '', tools: [{ name: 'create_issue' }, { name: 'list_issues' }] }, 'homes/u/.cursor/projects/p/mcp-cache.json');
    c.add({ name: 'gh', scope: '', tools: [{ name: 'create_issue', annotations: { destructiveHint: false } }] }, 'homes/u/.cursor/projects/p/mcps/user-gh/tools/create_issue.json');
    c.add({ name: 'gh', scope: '', tools: [{ name: 'merge_pr', annotations: { destructiveHint: true } }] }, 'homes/u/.cursor/projects/p/mcps/user-gh/tools/merge_pr.json');
    const [gh] = c.finish();
    expect(gh.tools).toEqual([{ name: 'create_issue' }, { name: 'list_issues' }, { name: 'merge_pr', annotations: { destructiveHint: true } }]);
    expect(gh.tools_file).toBe('homes/u/.cursor/projects/p/mcp-cache.json');
  });

  it('a server only caches name is listed once with every tool', () => {
    const c = new McpCollector();
    c.add({ name: 'x', scope: '', tools: [{ name: 'a' }] }, 'f1');
    c.add({ name: 'x', scope: '', tools: [{ name: 'b' }] }, 'f2');
    expect(c.finish().map((e) => [e.name, e.tools?.map((t) => t.name), e.file])).toEqual([['x', ['a', 'b'], 'f1']]);
  });
});

describe('McpCollector failures and many servers', () => {
  const fail = (name: string, message: string, line = 1) => ({ name, scope: '' as const, line, failure: { timestamp_utc: '2026-11-01T10:00:00.000Z', message } });

  it('keeps the first 100 failures of a name and counts them all, redacting secrets a config given later names', () => {
    const c = new McpCollector();
    for (let i = 1; i <= 150; i++) c.add(fail('gh', `start ${i} failed with sk-live-token-${'q'.repeat(30)}`, i), 'logs/a.jsonl');
    c.add(fail('lost', 'no config names me', 7), 'logs/b.jsonl');
    c.add(fail('lost', 'again'), 'logs/c.jsonl');
    // The config comes after the log: its env value still leaves every failure message.
    c.add({ name: 'gh', scope: 'user', command: 'npx', env_keys: ['TOKEN'], secrets: [{ where: 'env:TOKEN', value: `sk-live-token-${'q'.repeat(30)}` }] }, 'mcp.json');
    const [gh, lost] = c.finish();
    expect([gh.name, gh.failures_total, gh.failures.length, gh.failures[0].line, gh.failures[99].line]).toEqual(['gh', 150, 100, 1, 100]);
    expect(gh.failures.every((f) => !f.message.includes('qqqq'))).toBe(true);
    expect(gh.failures[0].message).toBe('start 1 failed with [REDACTED]');
    expect([lost.name, lost.file, lost.line, lost.failures_total, lost.failures.map((f) => f.file)]).toEqual(['lost', 'logs/b.jsonl', 7, 2, ['logs/b.jsonl', 'logs/c.jsonl']]);
  });

  it('merges caches into a server with tools of its own up to the cap, as one by one: the first names it lacks', () => {
    const c = new McpCollector();
    const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ name: `t${from + i}` }));
    c.add({ name: 's', scope: 'user', command: 'x', tools: names(0, 600) }, 'config');
    // Caches repeating the server's 600 names, then 1,500 more: the server gets the first 400 new ones.
    c.add({ name: 's', scope: '', tools: names(0, 900) }, 'cache-1');
    c.add({ name: 's', scope: '', tools: names(900, 2100) }, 'cache-2');
    const [s] = c.finish();
    expect(s.tools?.map((t) => t.name)).toEqual(names(0, 1000).map((t) => t.name));
    expect(s.tools_file).toBe('config');
  });

  it('attaches the failures of 32,000 servers, half of them configured, each to its own', () => {
    const c = new McpCollector();
    const n = 32_000;
    for (let i = 0; i < n; i++) c.add({ name: `s${i}`, scope: 'user', command: 'node' }, 'mcp.json');
    for (let i = 0; i < n; i++) c.add(fail(`s${i}`, `boom ${i}`), 'log.jsonl');
    for (let i = 0; i < n; i++) c.add(fail(`u${i}`, `lost ${i}`), 'log.jsonl');
    const all = c.finish();
    expect(all).toHaveLength(2 * n);
    expect(all.every((e) => e.failures_total === 1 && e.failures[0].message.endsWith(` ${e.name.slice(1)}`))).toBe(true);
    expect(all.filter((e) => e.scope === 'user')).toHaveLength(n);
  });
});
