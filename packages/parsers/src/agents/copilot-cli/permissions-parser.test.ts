import { describe, expect, it } from 'vitest';
import { copilotPermissionsParser } from './permissions-parser.js';
import { parseText } from './test-helpers/harness.js';

const REL = '.copilot/permissions-config.json';
const MTIME = '2026-10-01T09:00:06.500Z';
const parse = (body: string) => parseText(copilotPermissionsParser, REL, body, { mtime: MTIME });

describe('permissions-config.json parser', () => {
  it('gives one permission setting row per tool_approvals entry, in compact JSON, at the file mtime', async () => {
    const { rows } = await parse('{"locations":{"/srv/proj":{"tool_approvals":[{"kind":"write"},{"kind":"commands","commandIdentifiers":["npm test"]}]}}}');
    const fields = { timestamp_utc: MTIME, session_id: '', project_path: '/srv/proj', git_branch: '', model: '', tool_name: '', tool_use_id: '', turn_type: 'system', tag: 'permission_setting' };
    expect(rows).toEqual([
      { ...fields, text: 'permission setting: locations./srv/proj.tool_approvals={"kind":"write"}', source_line: 1 },
      { ...fields, text: 'permission setting: locations./srv/proj.tool_approvals={"commandIdentifiers":["npm test"],"kind":"commands"}', source_line: 2 },
    ]);
  });

  it('gives allowed_directories entries likewise, per location in file order', async () => {
    const body = JSON.stringify({ locations: { '/a': { allowed_directories: ['/tmp/x'] }, '/b': { tool_approvals: [{ kind: 'mcp', toolName: 't', serverName: 's' }], allowed_directories: [] } } });
    const { rows } = await parse(body);
    expect(rows.map((r) => [r.project_path, r.text, r.source_line])).toEqual([
      ['/a', 'permission setting: locations./a.allowed_directories="/tmp/x"', 1],
      ['/b', 'permission setting: locations./b.tool_approvals={"kind":"mcp","serverName":"s","toolName":"t"}', 1],
    ]);
  });

  it('gives a bad-line row for a location or list of the wrong shape and reads on', async () => {
    const { rows } = await parse('{"locations":{"/a":3,"/b":{"tool_approvals":{"kind":"write"}},"/c":{"tool_approvals":[{"kind":"read"}]}}}');
    expect(rows.map((r) => [r.tag, r.project_path])).toEqual([
      ['bad_line', '/a'],
      ['bad_line', '/b'],
      ['permission_setting', '/c'],
    ]);
    expect(rows[0].text).toBe('parser: unparseable line (expected locations./a to be an object, found a number): 3');
    expect(rows[1].text).toBe('parser: unparseable line (expected locations./b.tool_approvals to be an array, found an object with keys ["kind"]): {"kind":"write"}');
  });

  it('a file cut mid-write gives the complete grants before the cut, with a warning', async () => {
    const { rows, warnings } = await parse('{"locations":{"/srv/proj":{"tool_approvals":[{"kind":"write"},{"kind":"commands","commandIdentifiers":["rm -rf /ho');
    expect(rows.map((r) => r.text)).toEqual(['permission setting: locations./srv/proj.tool_approvals={"kind":"write"}', 'permission setting: locations./srv/proj.tool_approvals={"kind":"commands"}']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain('found invalid JSON (UnexpectedEndOfString) at line 1');
  });

  it('gives one unreadable row for invalid JSON or a file without locations', async () => {
    expect((await parse('{"locations":')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found invalid JSON') })]);
    expect((await parse('{"locations":[]}')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found locations as an array') })]);
    expect((await parse('{}')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found locations as absent') })]);
  });

  it('counts a location key other than the two lists as an unknown record kind, and reads the lists', async () => {
    const { rows, unknowns } = await parse(JSON.stringify({ locations: { '/a': { tool_approvals: [{ kind: 'read' }], denied_tools: [{ kind: 'shell' }] }, '/b': { denied_tools: [] } } }));
    expect(rows.map((r) => r.text)).toEqual(['permission setting: locations./a.tool_approvals={"kind":"read"}']);
    expect(unknowns).toEqual([{ kind: 'locations.*.denied_tools' }, { kind: 'locations.*.denied_tools' }]);
  });
});
