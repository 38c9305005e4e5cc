import { describe, expect, it } from 'vitest';
import { conversationRows } from '../agents/amazon-q/conversation.js';
import { pushAll } from './push-all.js';
import { recordingContext } from './recording-context.js';

describe('pushAll', () => {
  it('appends any number of items, where a spread of 200,000 throws', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => i);
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    expect(pushAll([-1], many).length).toBe(200_001);
  });

  it('a parser appending a hostile list that long keeps every row (Amazon Q: 200,000 tool results in one entry)', () => {
    const results = Array.from({ length: 200_000 }, (_, i) => ({ tool_use_id: `t${i}`, content: [{ Text: 'ok' }], status: 'Success' }));
    const state = { conversation_id: 'c1', history: [{ user: { content: { ToolUseResults: { tool_use_results: results } } }, assistant: {} }] };
    const rows = conversationRows(state, { key: '/p', line: 1, created: '' }, recordingContext(false));
    expect(rows.filter((r) => r.turn_type === 'tool_result').length).toBe(200_000);
  });
});
