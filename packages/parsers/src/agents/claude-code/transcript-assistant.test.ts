import { describe, expect, it } from 'vitest';
import { parseText } from './test-helpers/context.js';
import { assistant, chain, jsonl, MAIN_REL } from './test-helpers/lines.js';
import { transcriptParser } from './transcript.js';

const parse = (body: string, includeThinking = true) => parseText(transcriptParser, MAIN_REL, body, { includeThinking });

describe('transcript: assistant lines', () => {
  it('a text block is an assistant row with the line model; later rows carry the last model', async () => {
    const { rows } = await parse(jsonl(assistant([{ type: 'text', text: 'hi' }], {}, 'm1', 'claude-sonnet-4-6'), chain('system', { subtype: 'informational', content: 'note' })));
    expect(rows.map((r) => [r.turn_type, r.text, r.model])).toEqual([
      ['assistant', 'hi', 'claude-sonnet-4-6'],
      ['system', 'informational: note', 'claude-sonnet-4-6'],
    ]);
  });

  it('thinking rows only with include_thinking: the text, [thinking not stored] when empty, [redacted thinking]', async () => {
    const body = jsonl(
      assistant([{ type: 'thinking', thinking: 'plan', signature: 's1' }], {}, 'm1'),
      assistant([{ type: 'thinking', thinking: '', signature: 's2' }], {}, 'm2'),
      assistant([{ type: 'redacted_thinking', data: 'xx' }], {}, 'm3'),
    );
    expect((await parse(body)).rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['thinking', 'plan'],
      ['thinking', '[thinking not stored]'],
      ['thinking', '[redacted thinking]'],
    ]);
    expect((await parse(body, false)).rows).toEqual([]);
  });

  it('tool_use: input.command when a string, else compact JSON of input; server_tool_use too', async () => {
    const { rows } = await parse(
      jsonl(
        assistant([{ type: 'tool_use', id: 't1', name: 'PowerShell', input: { command: 'Get-ChildItem', timeout: 5 } }], {}, 'm1'),
        assistant([{ type: 'tool_use', id: 't2', name: 'mcp__gh__list_issues', input: { repo: 'a/b', state: 'open' } }], {}, 'm2'),
        assistant([{ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'claude' } }], {}, 'm3'),
        assistant([{ type: 'web_search_tool_result', tool_use_id: 's1', content: [{ type: 'web_search_result', url: 'https://x', title: 'X' }] }], {}, 'm3'),
      ),
    );
    expect(rows.map((r) => [r.turn_type, r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['tool_use', 'PowerShell', 't1', 'Get-ChildItem'],
      ['tool_use', 'mcp__gh__list_issues', 't2', '{"repo":"a/b","state":"open"}'],
      ['tool_use', 'web_search', 's1', '{"query":"claude"}'],
      ['tool_result', 'web_search', 's1', '[{"title":"X","type":"web_search_result","url":"https://x"}]'],
    ]);
  });

  it('one response split across lines gives one row per block; a repeated block of the same message id gives none', async () => {
    const think = { type: 'thinking', thinking: '', signature: 'sig' };
    const call = { type: 'tool_use', id: 't1', name: 'Agent', input: { prompt: 'p' } };
    const text = { type: 'text', text: 'done' };
    const { rows } = await parse(
      jsonl(
        assistant([think], {}, 'm1'),
        assistant([call], {}, 'm1'),
        // a cumulative snapshot of the same response repeats the earlier blocks
        assistant([think, call, text], {}, 'm1'),
        // the same text under another message id is a new reply
        assistant([text], {}, 'm2'),
      ),
    );
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text])).toEqual([
      [1, 'thinking', '[thinking not stored]'],
      [2, 'tool_use', '{"prompt":"p"}'],
      [3, 'assistant', 'done'],
      [4, 'assistant', 'done'],
    ]);
  });

  it('model <synthetic>: api error when isApiErrorMessage, else synthetic:; it does not become the last model', async () => {
    const { rows } = await parse(
      jsonl(
        assistant([{ type: 'text', text: 'ok' }], {}, 'm0', 'claude-opus-4-7'),
        assistant([{ type: 'text', text: 'API Error: 529 overloaded' }], { isApiErrorMessage: true }, 'm1', '<synthetic>'),
        assistant([{ type: 'text', text: 'No response requested.' }], {}, 'm2', '<synthetic>'),
        chain('system', { subtype: 'informational', content: 'x' }),
      ),
    );
    expect(rows.map((r) => [r.turn_type, r.text, r.model])).toEqual([
      ['assistant', 'ok', 'claude-opus-4-7'],
      ['system', 'api error: API Error: 529 overloaded', '<synthetic>'],
      ['system', 'synthetic: No response requested.', '<synthetic>'],
      ['system', 'informational: x', 'claude-opus-4-7'],
    ]);
  });
});

describe('transcript: system lines', () => {
  const sys = (subtype: string, extra: Record<string, unknown>) => chain('system', { subtype, ...extra });

  it('compaction, api_error, scheduled task, turn_duration skipped, other subtypes with a non-info level', async () => {
    const { rows } = await parse(
      jsonl(
        sys('compact_boundary', { content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'auto', preTokens: 170000, postTokens: 9000 }, logicalParentUuid: 'x' }),
        sys('api_error', { level: 'error', error: { message: 'overloaded' }, retryInMs: 500, retryAttempt: 2, maxRetries: 10 }),
        sys('api_error', { level: 'error', error: { status: 529 } }),
        sys('scheduled_task_fire', { content: 'x', taskId: 'job1', cron: '0 9 * * *', prompt: 'check CI' }),
        sys('turn_duration', { durationMs: 10, messageCount: 2, isMeta: false }),
        sys('away_summary', { content: 'while you were away', level: 'notice' }),
        sys('stop_hook_summary', { hookCount: 1, level: 'info' }),
      ),
    );
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['compaction: trigger=auto pre=170000 post=9000', 'compaction'],
      ['api error: overloaded retry=2/10', undefined],
      ['api error: {"status":529}', undefined],
      ['scheduled task job1 (0 9 * * *): check CI', undefined],
      ['away_summary: while you were away level=notice', undefined],
      ['stop_hook_summary: {"hookCount":1}', undefined],
    ]);
  });

  it('local_command holding a command envelope is a user row; its output a command output row', async () => {
    const { rows } = await parse(
      jsonl(
        sys('local_command', { content: '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>' }),
        sys('local_command', { content: '<local-command-stdout>Set model to opus</local-command-stdout>' }),
      ),
    );
    expect(rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['user', '/model opus'],
      ['system', 'command output: Set model to opus'],
    ]);
  });
});
