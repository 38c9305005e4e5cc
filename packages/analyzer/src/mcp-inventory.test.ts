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
