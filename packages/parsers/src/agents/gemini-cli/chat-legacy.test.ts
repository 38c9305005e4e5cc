import { describe, expect, it } from 'vitest';
import { chatCopyRank, isJsonLines, parseChat } from './chat-parser.js';
import { FamilyPaths } from './paths.js';
import { GEMINI_PROFILE } from './profile.js';
import { projectHashOf } from './project.js';
import { brief, type Home, jsonl, memoryArtifact, run } from './test-helpers/memory.js';

// The legacy single-JSON chat (v0.4–v0.38), subagent chats tied to their parent, and the
// .json/.jsonl sniffing, on synthetic files shaped like the real Windows and Linux corpora.

const paths = new FamilyPaths(GEMINI_PROFILE);
const SID = '22222222-0000-4000-8000-000000000002';
const ROOT = 'C:\\Users\\me\\dev\\shop';
const HASH = projectHashOf(ROOT);
const at = (s: number) => `2026-02-19T16:12:${String(s).padStart(2, '0')}.000Z`;

/** A legacy record pretty-printed as JSON.stringify(record, null, 2) writes it; `kind` and `summary` after the messages, as the CLI orders them. */
function legacy(messages: object[], extra: object = {}, id = SID): string {
  return JSON.stringify({ sessionId: id, projectHash: HASH, startTime: at(0), lastUpdated: at(50), messages, ...extra }, null, 2);
}

const parse = (home: Home, rel: string, includeThinking = true) => run((a, ctx, hooks) => parseChat(a, ctx, paths, hooks), home, rel, { includeThinking });

describe('gemini-cli legacy JSON chat', () => {
  const rel = `.gemini/tmp/${HASH}/chats/session-2026-02-19T16-11-22222222.json`;
  const messages = [
    { id: 'u1', timestamp: at(1), type: 'user', content: 'corrige le test' },
    { id: 'g1', timestamp: at(2), type: 'gemini', content: 'Je lance les tests.', thoughts: [{ subject: 'Plan', description: 'tests', timestamp: at(2) }], tokens: { input: 1, output: 1 }, model: 'gemini-2.5-pro' },
    {
      id: 'g2',
      timestamp: at(4),
      type: 'gemini',
      content: '',
      thoughts: [],
      model: 'gemini-2.5-pro',
      toolCalls: [{ id: 'run_shell_command-1-a', name: 'run_shell_command', args: { command: 'npm test', dir_path: 'C:\\Users\\me\\dev\\shop\\web' }, result: [{ functionResponse: { id: 'run_shell_command-1-a', name: 'run_shell_command', response: { output: 'ok' } } }], status: 'success', timestamp: at(5), resultDisplay: 'ok' }],
    },
    { id: 'i1', timestamp: at(6), type: 'info', content: 'Request cancelled.' },
  ];
  const home: Home = { [rel]: legacy(messages, { summary: 'Fix the test', kind: 'main' }), '.gemini/trustedFolders.json': JSON.stringify({ [ROOT]: 'TRUST_FOLDER' }) };

  it('gives the session start row (source_line null, kind read after the messages), then each message at its index + 1', async () => {
    const { rows } = await parse(home, rel);
    expect(brief(rows)).toEqual([
      [null, 'system', `session start: kind=main projectHash=${HASH}`],
      [null, 'system', 'session name: Fix the test'],
      [1, 'user', 'corrige le test'],
      [2, 'thinking', '**Plan** tests'],
      [2, 'system', 'model: gemini-2.5-pro'],
      [2, 'assistant', 'Je lance les tests.'],
      [3, 'tool_use', 'npm test'],
      [3, 'tool_result', 'ok'],
      [4, 'system', 'info: Request cancelled.'],
    ]);
    expect([rows[0].timestamp_utc, rows[1].timestamp_utc, rows[6].timestamp_utc]).toEqual([at(0), at(50), at(5)]);
  });

  it('resolves the hash directory to the trusted folder whose sha256 it is, in the case the user typed', async () => {
    const { rows, ctx } = await parse(home, rel);
    for (const r of rows) expect([r.session_id, r.project_path]).toEqual([SID, ROOT]);
    expect(ctx.facts).toEqual([{ session_id: SID, key: 'cwd', value: ROOT, priority: 1, at: at(0) }]);
  });

  it('reads a session of ~0.5 with no toolCalls key and no kind as kind=main', async () => {
    const old = { [rel]: legacy([{ id: 'u1', timestamp: at(1), type: 'user', content: 'check the config' }, { id: 'g1', timestamp: at(2), type: 'gemini', content: 'Done.', thoughts: [], model: 'gemini-2.5-pro' }]) };
    const { rows } = await parse(old, rel);
    expect(brief(rows)).toEqual([
      [null, 'system', `session start: kind=main projectHash=${HASH}`],
      [1, 'user', 'check the config'],
      [2, 'system', 'model: gemini-2.5-pro'],
      [2, 'assistant', 'Done.'],
    ]);
    expect(rows[0].project_path).toBe('');
  });

  it('a document cut mid-write keeps its complete messages and says where it was cut', async () => {
    const text = legacy(messages);
    const cut = { [rel]: text.slice(0, text.indexOf('"id": "g2"') + 4) };
    const { rows } = await parse(cut, rel);
    expect(brief(rows).map((r) => r[1])).toEqual(['system', 'user', 'thinking', 'system', 'assistant', 'system']);
    expect(rows[rows.length - 1].text).toMatch(/^parser: unparseable chat file \(the document ends inside .* \(cut mid-write\)\); 2 messages read$/);
    expect(rows[rows.length - 1].tag).toBe('bad_line');
  });

  it('a file saved with a UTF-8 BOM (a Windows editor) reads the same', async () => {
    const bom = { ...home, [rel]: `\uFEFF${home[rel] as string}` };
    expect(brief((await parse(bom, rel)).rows)).toEqual(brief((await parse(home, rel)).rows));
  });

  it('garbage gives one row that says so', async () => {
    const { rows } = await parse({ [rel]: 'PK\u0003\u0004 not json' }, rel);
    expect(rows.map((r) => [r.text, r.tag])).toEqual([['parser: unparseable chat file (not a JSON object or array); 0 messages read', 'bad_line']]);
  });

  it('a .json file that holds JSON Lines (the CLI reads JSONL first) is read as JSONL; a one-line legacy record is not', async () => {
    const lines = jsonl({ sessionId: SID, projectHash: HASH, startTime: at(0), lastUpdated: at(0) }, { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'hi' }] });
    expect(await isJsonLines(memoryArtifact({ [rel]: lines }, rel))).toBe(true);
    expect(await isJsonLines(memoryArtifact({ [rel]: JSON.stringify({ sessionId: SID, projectHash: HASH, messages: [] }) }, rel))).toBe(false);
    expect(await isJsonLines(memoryArtifact({ [rel]: legacy(messages) }, rel))).toBe(false);
    const { rows } = await parse({ [rel]: lines }, rel);
    expect(brief(rows)).toEqual([
      [1, 'system', `session start: kind=main projectHash=${HASH}`],
      [2, 'user', 'hi'],
    ]);
  });
});

describe('gemini-cli subagent chats', () => {
  const PARENT = '33333333-0000-4000-8000-000000000003';
  const sub = (dir: string, id: string) => `.gemini/tmp/shop/chats/${dir}/${id}.json`;
  const body = (id: string) => legacy([{ id: 's1', timestamp: at(1), type: 'user', content: 'find the config' }, { id: 's2', timestamp: at(2), type: 'gemini', content: 'Found it.', model: 'gemini-2.5-flash' }], { kind: 'subagent' }, id);

  it('a subagent chat under chats/<parent>/ (6-character id) belongs to the parent session, tagged sidechain', async () => {
    const rel = sub(PARENT, 'a1b2c3');
    const { rows } = await parse({ [rel]: body('a1b2c3'), '.gemini/tmp/shop/.project_root': '/srv/shop' }, rel);
    expect(brief(rows)[0]).toEqual([null, 'system', `session start: kind=subagent projectHash=${HASH} parent=${PARENT}`]);
    for (const r of rows) expect([r.session_id, r.project_path]).toEqual([PARENT, '/srv/shop']);
    expect(rows.map((r) => r.tag)).toEqual(['subagent_start', 'sidechain', 'model', 'sidechain']);
  });

  it('a chat under chats/skill-extraction-<hex>/ is a background run: its own session, tagged sidechain', async () => {
    const rel = sub('skill-extraction-1a2b3c4d', 'x9y8z7');
    const { rows } = await parse({ [rel]: body('x9y8z7') }, rel);
    expect(rows.every((r) => r.session_id === 'x9y8z7')).toBe(true);
    expect(rows[0].text).toBe(`session start: kind=subagent projectHash=${HASH}`);
    expect(rows.filter((r) => r.turn_type !== 'system').every((r) => r.tag === 'sidechain')).toBe(true);
  });

  it('wants subagent chats of both formats and the files the CLI set aside, and ranks the copies of a session', () => {
    for (const rel of [sub(PARENT, 'a1b2c3'), `.gemini/tmp/shop/chats/${PARENT}/${PARENT}.jsonl`, '.gemini/tmp/shop/chats/session-x.json.unreadable-1700000000000', '.gemini/tmp/shop/chats/session-x.jsonl.tmp-4242']) {
      expect(paths.chat.test(rel) || paths.subChat.test(rel), rel).toBe(true);
    }
    expect(['.gemini/tmp/shop/chats/session-x.jsonl', '.gemini/tmp/shop/chats/session-x.json', `.gemini/tmp/${HASH}/chats/session-x.jsonl`, `.gemini/tmp/${HASH}/chats/session-x.json`, '.gemini/tmp/shop/chats/session-x.json.unreadable-1'].map((r) => chatCopyRank(paths, r))).toEqual([0, 1, 2, 3, 5]);
  });
});
