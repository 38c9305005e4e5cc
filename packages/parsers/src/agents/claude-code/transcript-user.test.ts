import { describe, expect, it } from 'vitest';
import { jsonl, MAIN_REL, SID, user, assistant } from './test-helpers/lines.js';
import { parseText } from './test-helpers/context.js';
import { transcriptParser } from './transcript.js';

const parse = (body: string, opts = {}) => parseText(transcriptParser, MAIN_REL, body, opts);
const pairs = async (body: string) => (await parse(body)).rows.map((r) => [r.turn_type, r.text]);

describe('transcript: user lines', () => {
  it('a typed string prompt is a user row with the line time, cwd and branch', async () => {
    const { rows } = await parse(jsonl(user('fix the build', {}, '2026-10-01T10:00:01.000Z')));
    expect(rows).toEqual([
      { timestamp_utc: '2026-10-01T10:00:01.000Z', session_id: SID, project_path: '/srv/app', git_branch: 'main', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: 'fix the build', source_line: 1 },
    ]);
  });

  it('text and image blocks are joined with a newline, an image as [image <media_type>]', async () => {
    const content = [{ type: 'text', text: 'what is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }];
    expect(await pairs(jsonl(user(content)))).toEqual([['user', 'what is this?\n[image image/png]']]);
  });

  it('a command envelope is the command as history records it: /name, then the args when non-empty', async () => {
    const env = (name: string, args: string) => `<command-name>${name}</command-name>\n            <command-message>${name.replace('/', '')}</command-message>\n            <command-args>${args}</command-args>`;
    expect(await pairs(jsonl(user(env('/model', 'sonnet')), user(env('/compact', '')), user(env('review', 'pr 12'))))).toEqual([
      ['user', '/model sonnet'],
      ['user', '/compact'],
      ['user', '/review pr 12'],
    ]);
  });

  it('! shell input is a user row !cmd; command and shell output are system rows', async () => {
    expect(
      await pairs(
        jsonl(
          user('<bash-input>ls -la</bash-input>'),
          user('<bash-stdout>total 0</bash-stdout><bash-stderr></bash-stderr>'),
          user('<local-command-stdout>Set model to sonnet</local-command-stdout>'),
          user('<local-command-stderr>boom</local-command-stderr>'),
        ),
      ),
    ).toEqual([
      ['user', '!ls -la'],
      ['system', 'shell output: total 0'],
      ['system', 'command output: Set model to sonnet'],
      ['system', 'command output: boom'],
    ]);
  });

  it('interrupts, notifications, hook feedback, reminders and IDE context are system rows', async () => {
    const texts = ['[Request interrupted by user]', '<task-notification>done</task-notification>', 'Stop hook feedback: no', '<system-reminder>x</system-reminder>', '<ide_opened_file>a.ts</ide_opened_file>', '<ide_selection>b</ide_selection>'];
    expect(await pairs(jsonl(...texts.map((t) => user(t))))).toEqual([
      ['system', 'interrupted: [Request interrupted by user]'],
      ['system', 'task notification: <task-notification>done</task-notification>'],
      ['system', 'stop hook feedback: Stop hook feedback: no'],
      ['system', 'system reminder: <system-reminder>x</system-reminder>'],
      ['system', 'ide context: <ide_opened_file>a.ts</ide_opened_file>'],
      ['system', 'ide context: <ide_selection>b</ide_selection>'],
    ]);
  });

  it('isMeta gives meta: <text> in full; isCompactSummary gives compaction summary:', async () => {
    const long = 'x'.repeat(5000);
    const { rows } = await parse(jsonl(user(`<local-command-caveat>${long}</local-command-caveat>`, { isMeta: true }), user('This session is being continued', { isCompactSummary: true, isVisibleInTranscriptOnly: true })));
    expect(rows.map((r) => [r.turn_type, r.text, r.tag])).toEqual([
      ['system', `meta: <local-command-caveat>${long}</local-command-caveat>`, undefined],
      ['system', 'compaction summary: This session is being continued', 'compaction_summary'],
    ]);
  });

  it('a repeated uuid (a resumed file replaying its lines) gives no second row', async () => {
    const u = user('once');
    expect(await pairs(jsonl(u, u, { ...u, timestamp: '2026-10-01T11:00:00.000Z' }))).toEqual([['user', 'once']]);
  });
});

describe('transcript: tool results', () => {
  const call = (id: string, name: string, input: unknown) => assistant([{ type: 'tool_use', id, name, input }], {}, `msg_${id}`);
  const result = (id: string, content: unknown, extra: Record<string, unknown> = {}) => user([{ tool_use_id: id, type: 'tool_result', content, ...extra }]);

  it('string and block content, the tool name remembered for the id, [error] when is_error', async () => {
    const { rows } = await parse(jsonl(call('t1', 'Bash', { command: 'npm test' }), result('t1', 'ok'), call('t2', 'Read', { file_path: '/a' }), result('t2', [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], { is_error: true })));
    expect(rows.map((r) => [r.turn_type, r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['tool_use', 'Bash', 't1', 'npm test'],
      ['tool_result', 'Bash', 't1', 'ok'],
      ['tool_use', 'Read', 't2', '{"file_path":"/a"}'],
      ['tool_result', 'Read', 't2', '[error] a\nb'],
    ]);
  });

  it('spilled output: the collected tool-results file is appended after a newline', async () => {
    const text = 'Output too large (2MB). Full output saved to: /home/me/.claude/projects/-srv-app/' + SID + '/tool-results/abc.txt\n\nPreview...';
    const files = { [`.claude/projects/-srv-app/${SID}/tool-results/abc.txt`]: 'FULL OUTPUT' };
    const { rows } = await parse(jsonl(call('t1', 'Bash', { command: 'cat big' }), result('t1', text)), { files });
    expect(rows[1].text).toBe(`${text}\nFULL OUTPUT`);
    const { rows: absent } = await parse(jsonl(call('t1', 'Bash', { command: 'cat big' }), result('t1', text)));
    expect(absent[1].text).toBe(text);
  });

  it('denials and interrupts add a permission decision row with the same tool ids', async () => {
    const { rows } = await parse(
      jsonl(
        call('t1', 'Bash', { command: 'rm -rf /' }),
        result('t1', "The user doesn't want to proceed with this tool use. The tool use was rejected.", { is_error: true }),
        call('t2', 'Edit', {}),
        result('t2', 'Permission to use Edit has been denied because of a rule.', { is_error: true }),
        call('t3', 'Bash', { command: 'sleep 99' }),
        result('t3', '[Request interrupted by user for tool use]', { is_error: true }),
      ),
    );
    expect(rows.filter((r) => r.tag === 'permission_decision').map((r) => [r.text, r.tool_name, r.tool_use_id])).toEqual([
      ['permission decision: denied source=user', 'Bash', 't1'],
      ['permission decision: denied source=rule', 'Edit', 't2'],
      ['permission decision: interrupted', 'Bash', 't3'],
    ]);
  });
});
