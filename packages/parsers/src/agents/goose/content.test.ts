import { describe, expect, it } from 'vitest';
import { recordingContext } from '../../sdk/recording-context.js';
import { type GooseMessage, messageRows } from './content.js';

// One focused test per MessageContent kind not already met row by row in sessions.test.ts.

const msg = (content: unknown[], extra: Partial<GooseMessage> = {}): GooseMessage => ({ sessionId: 's', role: 'assistant', created: '2026-09-14T09:00:00.000Z', content, metadata: {}, line: 3, projectPath: '/p', ...extra });
const rows = (m: GooseMessage, thinking = true, tools = new Map<string, string>()) => {
  const ctx = recordingContext(thinking);
  return { rows: messageRows(m, tools, ctx).map((r) => [r.turn_type, r.text, r.tool_name, r.tag ?? '']), ctx };
};

describe('goose content', () => {
  it('text by role; a message only the user saw (agentVisible false) is a notice', () => {
    expect(rows(msg([{ type: 'text', text: 'hi' }], { role: 'user' })).rows).toEqual([['user', 'hi', '', '']]);
    expect(rows(msg([{ type: 'text', text: 'hi' }])).rows).toEqual([['assistant', 'hi', '', '']]);
    expect(rows(msg([{ type: 'text', text: 'shown only' }], { metadata: { userVisible: true, agentVisible: false } })).rows).toEqual([['system', 'notice: shown only', '', '']]);
  });

  it('a tool response carries the name of the request it answers; legacy bare content lists, images and resources are read', () => {
    const tools = new Map<string, string>();
    rows(msg([{ type: 'toolRequest', id: 't1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'ls' } } } }]), true, tools);
    const legacyList = { type: 'toolResponse', id: 't1', toolResult: { status: 'success', value: [{ type: 'text', text: 'a' }, { type: 'image', data: 'x', mimeType: 'image/png' }, { type: 'resource', resource: { uri: 'file:///p/b', text: 'b body' } }] } };
    expect(rows(msg([legacyList], { role: 'user' }), true, tools).rows).toEqual([['tool_result', 'a\n[image image/png]\nb body', 'developer__shell', '']]);
    const flagged = { type: 'toolResponse', id: 't1', toolResult: { status: 'success', value: { content: [{ type: 'text', text: 'exit 1' }], isError: true } } };
    expect(rows(msg([flagged], { role: 'user' }), true, tools).rows).toEqual([['tool_result', '[error] exit 1', 'developer__shell', '']]);
  });

  it('elicitation and its response; an unknown action type is counted', () => {
    expect(rows(msg([{ type: 'actionRequired', data: { actionType: 'elicitation', id: 'e1', message: 'Which env?', requested_schema: {} } }])).rows).toEqual([['system', 'elicitation: Which env?', '', '']]);
    expect(rows(msg([{ type: 'actionRequired', data: { actionType: 'elicitationResponse', id: 'e1', user_data: { env: 'prod' } } }], { role: 'user' })).rows).toEqual([['user', 'elicitation response: {"env":"prod"}', '', '']]);
    expect(rows(msg([{ type: 'actionRequired', data: { actionType: 'teleport', id: 'x' } }])).ctx.unknowns).toEqual([{ kind: 'actionRequired teleport', line: 3 }]);
  });

  it('thinking rows only with --include-thinking', () => {
    const content = [{ type: 'thinking', thinking: 'plan', signature: '' }, { type: 'redactedThinking', data: 'x' }];
    expect(rows(msg(content)).rows.map((r) => r[1])).toEqual(['plan', '[redacted thinking]']);
    expect(rows(msg(content), false).rows).toEqual([]);
  });

  it('an item without a type, or of a type goose never wrote, is counted, never dropped silently', () => {
    expect(rows(msg([{ text: 'no type' }, { type: 'audio' }])).ctx.unknowns).toEqual([
      { kind: 'content (no type)', line: 3 },
      { kind: 'content audio', line: 3 },
    ]);
  });
});
