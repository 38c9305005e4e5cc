import { describe, expect, it } from 'vitest';
import { HOMES, parserFor, runFile, runText, SESSION_REL } from './test-helpers/run.js';
import type { Row } from '../../sdk/types.js';

// The flat session form (<id>.json, VS Code before 1.109, and the legacy objects), streamed with
// the SDK's readJsonArray: the same rows as the log form for the same records, one request at a
// time, a cut document keeping every complete request.

const W1 = '.config/Code/User/workspaceStorage/1111aaaa1111aaaa1111aaaa1111aaaa';
const B = 'b0000000-0000-4000-8000-00000000000b';
const SID = '0c000000-0000-4000-8000-000000000001';
const REL = SESSION_REL(SID, 'json');
const request = (i: number, text: string) => ({ requestId: `r${i}`, timestamp: 1790931601000 + i * 1000, message: { text }, modelId: 'copilot/gpt-4.1', agent: { id: 'github.copilot.default' }, response: [{ value: `reply ${i}` }] });
const session = (requests: unknown[], extra: object = {}) => JSON.stringify({ version: 3, requesterUsername: 'octo-user', responderUsername: 'GitHub Copilot', initialLocation: 'panel', requests, sessionId: SID, creationDate: 1790931600000, isImported: false, lastMessageDate: 1790931609000, customTitle: 'Flat', ...extra }, null, 2);

describe('flat .json sessions', () => {
  it('gives the variants home flat session request by request, then its start and name (fields after "requests")', async () => {
    const r = await runFile(HOMES.variants, `${W1}/chatSessions/${B}.json`);
    expect(r.short.filter(([, t]) => t === 'user' || t === 'assistant')).toEqual([
      [0, 'user', '', '/explain why does the build fail?'],
      // Markdown and inline references joined as VS Code's "copy response" prints them.
      [0, 'assistant', '', 'The build reads esbuild.config.mjs which names an entry point that `bundle` no longer has.'],
      [1, 'user', '', 'rewrite it for esbuild 0.25'],
    ]);
    expect(r.short.slice(-2)).toEqual([
      [null, 'system', 'session_start', 'session start: vscode chat location=panel responder=GitHub Copilot requester=octo-user'],
      [null, 'system', 'session_name', 'session name: Build failure'],
    ]);
    // The name of a session with no completion times is dated by lastMessageDate.
    expect(r.rows.at(-1)?.timestamp_utc).toBe('2026-10-02T08:04:20.000Z');
    expect(new Set(r.rows.map((x) => `${x.session_id} ${x.project_path}`))).toEqual(new Set([`${B} /srv/app`]));
  });

  it('reads a document streamed in small chunks the same as whole', async () => {
    const text = session([request(1, 'one ✓'), request(2, 'two')]);
    const whole = await runText(REL, text);
    expect(whole.short.filter(([, t]) => t === 'user').map(([l, , , x]) => [l, x])).toEqual([
      [0, 'one ✓'],
      [1, 'two'],
    ]);
    for (const chunk of [1, 5, 64]) expect((await runText(REL, text, { chunk })).rows).toEqual(whole.rows);
  });

  it('keeps every complete request of a cut document and says where it was cut', async () => {
    const text = session([request(1, 'one'), request(2, 'two')]);
    const cut = text.slice(0, text.indexOf('"two"') + 3);
    const r = await runText(REL, cut);
    expect(r.short.filter(([, t]) => t === 'user').map(([, , , x]) => x)).toEqual(['one']);
    expect(r.rows.filter((x) => x.tag === 'bad_line').map((x) => [x.source_line, x.text])).toEqual([[1, expect.stringMatching(/^parser: unparseable line \(the session file is cut after 1 complete request\(s\): the document ends inside \d+ open containers and a string \(cut mid-write\)\): $/)]]);
    // The fields after "requests" never came: the start row has only what came before.
    expect(r.short.find(([, , tag]) => tag === 'session_start')?.[3]).toBe('session start: vscode chat location=panel responder=GitHub Copilot requester=octo-user');
  });

  it('reports a broken request element and reads the next', async () => {
    const text = session([request(1, 'one'), request(2, 'two')]).replace('"requestId": "r1"', '"requestId": r1');
    const r = await runText(REL, text);
    expect(r.short.filter(([, t]) => t === 'user').map(([, , , x]) => x)).toEqual(['two']);
    expect(r.rows.find((x) => x.tag === 'bad_line')?.text).toMatch(/^parser: unparseable line \(request 0 of the session: .*\): \{/s);
  });

  it('gives one unreadable row for a file that is not a session', async () => {
    expect((await runText(REL, 'garbage, not JSON')).short).toEqual([[null, 'system', 'unreadable', 'parser: unreadable file (expected a chat session (a JSON object with "requests"), found not a JSON object or array)']]);
    const empty = await runText(REL, '{"version": 3, "sessionId": "x"}');
    expect(empty.short).toEqual([[null, 'system', 'session_start', 'session start: vscode chat']]);
  });

  it('reads versions 1 and 2 as VS Code normalizes them: computedTitle as the name, editing-session as panel', async () => {
    const r = await runText(REL, JSON.stringify({ version: 1, sessionId: SID, creationDate: 1790931600000, initialLocation: 'editing-session', computedTitle: 'Old title', requests: [{ requestId: 'r1', message: { text: 'old question' }, response: [{ value: 'old answer' }], timestamp: 1790931601000, isCanceled: true }] }));
    expect(r.short).toEqual([
      [0, 'system', 'permission_mode', 'permission mode: default'],
      [0, 'user', '', 'old question'],
      [0, 'assistant', '', 'old answer'],
      [0, 'system', 'request_state', 'request cancelled'],
      [null, 'system', 'session_start', 'session start: vscode chat location=panel'],
      [null, 'system', 'session_name', 'session name: Old title'],
    ]);
  });

  it('warns when the session object names another id than its file, and keeps the file name', async () => {
    const r = await runText(REL, session([request(1, 'one')], { sessionId: 'someone-else' }));
    expect(new Set(r.rows.map((x) => x.session_id))).toEqual(new Set([SID]));
    expect(r.ctx.warnings).toEqual([{ message: `the session object names session someone-else but the file is named ${SID}; the file name is used` }]);
  });

  it('reads a session in transit between windows (transferredChatSessions) as a secondary copy of the flat form, the same rows', async () => {
    const moved = `.config/Code/User/globalStorage/transferredChatSessions/${SID}.json`;
    const p = parserFor(moved);
    expect(p).toBe(parserFor(REL));
    // Secondary within a minute (the same epoch values as the workspace copy): the analyzer drops
    // each of its rows the primary file holds, and keeps the rest.
    expect([p.secondary(moved), p.secondaryToleranceSeconds(moved), p.secondary(REL), p.secondaryToleranceSeconds(REL)]).toEqual([true, 60, false, 0]);
    const text = session([request(1, 'one'), request(2, 'two')]);
    const strip = (rows: Row[]) => rows.map(({ project_path: _p, ...r }) => r);
    const [inTransit, inWorkspace] = [await runText(moved, text), await runText(REL, text)];
    expect(inTransit.short.filter(([, t]) => t === 'user').map(([, , , x]) => x)).toEqual(['one', 'two']);
    expect(strip(inTransit.rows)).toEqual(strip(inWorkspace.rows));
    expect([inTransit.ctx.warnings, inTransit.ctx.unknowns]).toEqual([[], []]);
  });
});
