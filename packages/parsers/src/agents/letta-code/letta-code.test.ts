import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { lettaCodePlugin } from './index.js';
import { conversationOf } from './transcript-parser.js';

// fixtures/homes/letta-code-spec (laid out from shared/agents/letta-code.md and letta-code's
// source: local-store.ts, local-message.ts, sessionHistory.ts, chunkLog.ts), read row by row
// against the spec's parser plan; then the damage and variants a real file can hold.

const [transcript, sessions, chunks] = lettaCodePlugin.parsers;
const homes = tempHomes('letta');
const AG = 'agent-local-1b6f0c2e-8f3a-4d2b-9c1e-5a7d3e2f9b10';
const CONV = '.letta/lc-local-backend/conversations/Y29udmVyc2F0aW9uOmxvY2FsLWNvbnYtMw/messages.jsonl';
const S1 = '1791014390000-k3j9x0q2m7a1b';
const line = (r: Row) => [r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.text, r.tag ?? ''];
const SONNET = 'anthropic/claude-sonnet-4-5';

describe('letta-code (the fixture home)', () => {
  it('transcript: the last copy of each message, models as they change, a denial, a placeholder time, the compaction', async () => {
    const home = copyHome('letta-code-spec', homes.make());
    const { rows, ctx } = await run(transcript, home, CONV);
    expect(rows.map(line)).toEqual([
      [1, '2026-10-03T08:00:00.000Z', 'system', '', '', '', 'session start: local-conv-3 version=3 cwd=/home/dev/src/letta-app', 'session_start'],
      [2, '2026-10-03T08:00:01.000Z', 'user', '', '', '', 'list the TODOs', ''],
      [4, '2026-10-03T08:00:03.000Z', 'system', '', '', SONNET, `model: ${SONNET}`, 'model'],
      [4, '2026-10-03T08:00:03.000Z', 'thinking', '', '', SONNET, 'Grep for TODO markers.', ''],
      [4, '2026-10-03T08:00:03.000Z', 'assistant', '', '', SONNET, "I'll search.", ''],
      [4, '2026-10-03T08:00:03.000Z', 'tool_use', 'Grep', 'toolu_01', SONNET, '{"pattern":"TODO"}', ''],
      [5, '2026-10-03T08:00:04.000Z', 'tool_result', 'Grep', 'toolu_01', '', 'app.py:3: # TODO retry', ''],
      [6, '2026-10-03T08:00:06.000Z', 'system', '', '', 'anthropic/claude-haiku-4-5', `model: ${SONNET} -> anthropic/claude-haiku-4-5`, 'model'],
      [6, '2026-10-03T08:00:06.000Z', 'tool_use', 'Bash', 'toolu_02', 'anthropic/claude-haiku-4-5', 'rm -rf build/', ''],
      [7, '2026-10-03T08:00:09.000Z', 'tool_result', 'Bash', 'toolu_02', '', '[error] Tool execution denied.', ''],
      [7, '2026-10-03T08:00:09.000Z', 'system', 'Bash', 'toolu_02', '', 'permission decision: denied Bash', 'permission_decision'],
      [8, '2026-10-03T08:00:00.000Z', 'user', '', '', '', 'ok, leave build/ alone', 'time_session'],
      [9, '2026-10-03T09:40:31.502Z', 'system', '', '', '', "context compacted (152340 tokens before): Found one TODO in app.py; the user declined cleaning build/.", 'compaction'],
    ]);
    expect(rows.every((r) => r.session_id === 'local-conv-3' && r.project_path === '/home/dev/src/letta-app')).toBe(true);
    expect(ctx.warnings.map((w) => w.message)).toEqual([`${CONV}: 1 earlier copies of messages written again later (Letta appends a message each time it changes); the last copy of each gave the rows`]);
    expect(ctx.facts).toEqual([{ session_id: 'local-conv-3', key: 'cwd', value: '/home/dev/src/letta-app', priority: 1 }]);
  });

  it('sessions.jsonl: a start and an end row per session, with the totals', async () => {
    const home = copyHome('letta-code-spec', homes.make());
    const { rows } = await run(sessions, home, '.letta/sessions.jsonl');
    const who = `agent=${AG} model=${SONNET} provider=anthropic`;
    expect(rows.map((r) => [r.session_id, ...line(r)])).toEqual([
      [S1, 1, '2026-10-03T07:59:50.000Z', 'system', '', '', SONNET, `session started: ${who}`, 'session_start'],
      [S1, 2, '2026-10-03T09:10:00.000Z', 'system', '', '', SONNET, `session summary: ${who} messages=6 tools=2 tokens=5000/800 steps=4 wall=4210s cost=hosted 3 credits exit=exit_command`, 'session_end'],
      ['1791104990000-p0q1r2s3t4u5v', 3, '2026-10-04T09:09:50.000Z', 'system', '', '', SONNET, `session started: ${who}`, 'session_start'],
      ['1791104990000-p0q1r2s3t4u5v', 4, '2026-10-04T09:10:00.000Z', 'system', '', '', SONNET, `session summary: ${who} messages=2 tools=0 tokens=900/100 steps=1 wall=10s cost=hosted 1 credits exit=exit_command`, 'session_end'],
    ]);
    expect(rows.every((r) => r.project_path === '/home/dev/src/letta-app')).toBe(true);
  });

  it('a chunk log: streamed pieces of one message joined, keep-alives and usage left out, the cut text kept as Letta cut it', async () => {
    const home = copyHome('letta-code-spec', homes.make());
    const rel = `.letta/logs/chunk-logs/${AG}/${S1}.jsonl`;
    const { rows, ctx } = await run(chunks, home, rel);
    expect(rows.map((r) => [r.session_id, r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.text.replace(/(3 passed, 1 warning in 0\.42s ?)+/, '…'), r.tag ?? ''])).toEqual([
      [S1, 1, 'thinking', '', '', 'Run the tests.', ''],
      [S1, 2, 'assistant', '', '', 'Running the tests now.', ''],
      [S1, 4, 'tool_use', 'Bash', 'call_9', '{"command":"pytest -q"}', ''],
      [S1, 5, 'system', '', '', 'stop: requires_approval', 'time_file'],
      [S1, 6, 'tool_result', '', 'call_9', '…3 passed, 1 warning in 0.4...[truncated, was 290b]', ''],
    ]);
    expect(ctx.unknowns).toEqual([]);
    expect((await run(chunks, home, rel, { includeThinking: false })).rows.map((r) => r.turn_type)).not.toContain('thinking');
  });
});

describe('letta-code: variants and damage', () => {
  it('a transcript from before schema 2 (bare messages, no header): the session from the folder name, times from the messages, bad lines kept', async () => {
    const home = homes.make();
    const dir = Buffer.from(`default:${AG}`).toString('base64url');
    const rel = `.letta/lc-local-backend/conversations/${dir}/messages.jsonl`;
    writeFiles(home, {
      [rel]: [
        JSON.stringify({ id: 'ui-msg-1', role: 'user', content: 'hello', timestamp: 1791014401000 }),
        '{"id": "ui-msg-2", "role": "assistant", "content": [{"type": "text", "te',
        JSON.stringify({ id: 'ui-msg-3', role: 'assistant', content: [{ type: 'image_gen', url: 'x' }], provider: 'local', model: 'local', stopReason: 'error', errorMessage: 'provider timed out', timestamp: 1791014402000 }),
        JSON.stringify({ type: 'label', id: 'e1', parentId: null, timestamp: '2026-10-03T08:00:00Z', targetId: 'x', label: 'bookmark' }),
        JSON.stringify({ id: 'ui-msg-4', role: 'developer', content: 'odd', timestamp: 1791014403000 }),
      ].join('\n'),
    });
    const { rows, ctx } = await run(transcript, home, rel);
    expect(rows.map((r) => [r.session_id, r.source_line, r.turn_type, r.text.slice(0, 70), r.tag ?? ''])).toEqual([
      [`default:${AG}`, 1, 'user', 'hello', ''],
      [`default:${AG}`, 2, 'system', 'parser: unparseable line (', 'bad_line'].map((v, i) => (i === 3 ? expect.stringContaining(String(v)) : v)),
      [`default:${AG}`, 3, 'system', 'model: local/local', 'model'],
      [`default:${AG}`, 3, 'system', 'assistant content: {"type":"image_gen","url":"x"}', ''],
      [`default:${AG}`, 3, 'system', 'error: provider timed out', ''],
      [`default:${AG}`, 4, 'system', 'entry: {"id":"e1","label":"bookmark","parentId":null,"targetId":"x","t', ''],
      [`default:${AG}`, 5, 'system', 'message: {"content":"odd","id":"ui-msg-4","role":"developer","timestam', ''],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['assistant content image_gen', 'entry label', 'message role developer']);
  });

  it('names the session of a conversation folder whatever it holds', () => {
    const b = (s: string) => Buffer.from(s).toString('base64url');
    expect(conversationOf(`.letta/lc-local-backend/conversations/${b('conversation:local-conv-9')}/messages.jsonl`)).toBe('local-conv-9');
    expect(conversationOf(`.letta/lc-local-backend/conversations/${b('default:agent-1')}/messages.jsonl`)).toBe('default:agent-1');
    expect(conversationOf('.letta/lc-local-backend/conversations/conv 7/messages.jsonl')).toBe('conv 7');
  });

  it('sessions.jsonl: a line cut short is a bad_line row; a line with no time takes the file time', async () => {
    const home = homes.make();
    writeFiles(home, { '.letta/sessions.jsonl': `${JSON.stringify({ session_id: 's1', project: '/p', model: 'm', usage: {}, duration: {}, cost: {} })}\n{"session_id": "s2", "timest` });
    const { rows } = await run(sessions, home, '.letta/sessions.jsonl');
    expect(rows.map((r) => [r.session_id, r.text.slice(0, 40), r.tag, r.timestamp_utc !== ''])).toEqual([
      ['s1', 'session started: agent=- model=m provide', 'time_file', true],
      ['', 'parser: unparseable line (', 'bad_line', false].map((v, i) => (i === 1 ? expect.stringContaining(String(v)) : v)),
    ]);
  });

  it('wants only the files of its plan', () => {
    expect(transcript.wants(CONV)).toBe(true);
    expect(transcript.wants('.letta/lc-local-backend/conversations/x/messages.jsonl.corrupt-tail-backup-1791014401000')).toBe(false);
    expect(sessions.wants('.letta/sessions.jsonl')).toBe(true);
    expect(chunks.wants(`.letta/logs/chunk-logs/${AG}/${S1}.jsonl`)).toBe(true);
    expect(chunks.wants('.letta/cron/runs/nightly.jsonl')).toBe(false);
  });
});
