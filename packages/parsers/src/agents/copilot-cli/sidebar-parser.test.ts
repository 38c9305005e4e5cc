import { describe, expect, it } from 'vitest';
import { copilotSidebarParser } from './sidebar-parser.js';
import { parseText } from './test-helpers/harness.js';

const REL = '.copilot/sidebar-sessions-state/6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972.json';
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const parse = (body: string) => parseText(copilotSidebarParser, REL, body);

describe('sidebar-sessions-state parser', () => {
  it('gives no rows and a cwd fact of priority 4 per listed session', async () => {
    const { rows, facts } = await parse(`{"schemaVersion":1,"cwd":"/srv/proj","sessionIds":["${SID}","other"]}`);
    expect(rows).toEqual([]);
    expect(facts).toEqual([
      { session_id: SID, key: 'cwd', value: '/srv/proj', priority: 4 },
      { session_id: 'other', key: 'cwd', value: '/srv/proj', priority: 4 },
    ]);
  });

  it('reads the cwd from the content, not the file name: a name that is not the sha256 of cwd gives the same facts', async () => {
    const rel = `.copilot/sidebar-sessions-state/${'0'.repeat(64)}.json`;
    const { rows, facts } = await parseText(copilotSidebarParser, rel, `{"schemaVersion":1,"cwd":"C:\\\\Users\\\\sean\\\\demo","sessionIds":["${SID}"]}`);
    expect(rows).toEqual([]);
    expect(facts).toEqual([{ session_id: SID, key: 'cwd', value: 'C:\\Users\\sean\\demo', priority: 4 }]);
  });

  it('warns on an id that is not a string', async () => {
    const { facts, warnings } = await parse('{"cwd":"/p","sessionIds":[null,"a"]}');
    expect(facts).toEqual([{ session_id: 'a', key: 'cwd', value: '/p', priority: 4 }]);
    expect(warnings).toEqual([{ message: 'sidebar sessionIds[0]: expected a session id, found null', line: 1 }]);
  });

  it('a file cut mid-write gives the complete session ids before the cut', async () => {
    const { facts, warnings } = await parse(`{"schemaVersion":1,"cwd":"/srv/proj","sessionIds":["${SID}","5e55a0a1-0000-4000`);
    expect(facts).toEqual([{ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 4 }]);
    expect(warnings).toHaveLength(1);
  });

  it('gives one unreadable row for invalid JSON or the wrong shape', async () => {
    expect((await parse('{"cwd":')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found invalid JSON') })]);
    expect((await parse('{"sessionIds":[]}')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found cwd as null') })]);
    expect((await parse('{"cwd":"/p","sessionIds":{}}')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found sessionIds as an object') })]);
  });
});
