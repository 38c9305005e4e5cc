import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { CORPUS, HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { parseChatHistory } from './chat-history.js';
import { aiderPlugin } from './index.js';

// Aider's parsers over fixtures/homes/aider-spec, the real Aider 0.85.2 history of the shared
// corpus (CRLF, Windows, architect mode), and hostile transcripts.

const HOME = `${HOMES}aider-spec`;
const [chat, input, config] = aiderPlugin.parsers;
const homes = tempHomes('aider');
const rowsOf = (rows: Row[]) => rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.tag ?? '', r.tool_name, r.text.split('\n')[0]]);

describe('aider: paths', () => {
  it('claims the histories and config in the home or a project, nothing else', () => {
    expect(aiderPlugin.parsers.map((p) => p.name)).toEqual(['chat-history', 'input-history', 'config']);
    expect(chat.wants('.aider.chat.history.md') && chat.wants('proj/.aider.chat.history.md')).toBe(true);
    expect(input.wants('.aider.input.history') && input.secondary('.aider.input.history')).toBe(true);
    expect(config.wants('.aider.conf.yml') && config.readsSecretFile?.('.aider.conf.yml')).toBe(true);
    for (const rel of ['.aider.llm.history', '.aider/analytics.json', '.aider.tags.cache.v4/cache.db', 'x.aider.chat.history.md']) expect(aiderPlugin.parsers.some((p) => p.wants(rel)), rel).toBe(false);
  });
});

describe('aider: the fixture transcript, row by row', () => {
  it('first session: banner, models, /add, a prompt and its edit, usage, the edit applied and committed, /run with output, two refusals', async () => {
    const { rows } = await run(chat, HOME, '.aider.chat.history.md');
    const s1 = rows.filter((r) => r.session_id.startsWith('20260202T091500'));
    expect(rowsOf(s1)).toEqual([
      [2, '2026-02-02T09:15:00.000Z', 'system', 'session_start', '', 'session start: aider chat started at 2026-02-02 09:15:00 (local time, zone not recorded)'],
      [4, '2026-02-02T09:15:00.000Z', 'system', 'status', '', '/home/dev/.local/bin/aider --model anthropic/claude-sonnet-4-5 --api-key [redacted]'],
      [6, '2026-02-02T09:15:00.000Z', 'system', 'model', '', 'main model: anthropic/claude-sonnet-4-5 (diff edit format)'],
      [7, '2026-02-02T09:15:00.000Z', 'system', 'model', '', 'weak model: anthropic/claude-haiku-4-5'],
      [11, '2026-02-02T09:15:10.123Z', 'system', 'slash_command', '', 'slash command: /add calc.py'],
      [13, '2026-02-02T09:15:10.123Z', 'system', 'status', '', 'Added calc.py to the chat'],
      [15, '2026-02-02T09:15:30.000Z', 'user', '', '', 'make add() handle floats'],
      [18, '2026-02-02T09:15:30.000Z', 'assistant', 'time_exchange', '', 'calc.py'],
      [27, '2026-02-02T09:15:30.000Z', 'system', 'usage', '', 'Tokens: 2.1k sent, 96 received. Cost: $0.0078 message, $0.0078 session.'],
      [28, '2026-02-02T09:15:30.000Z', 'system', 'file_change', 'edit', 'file changed: calc.py'],
      [29, '2026-02-02T09:15:30.000Z', 'system', 'git_commit', '', 'git commit 3f9a1c2: feat: Accept floats in add()'],
      [31, '2026-02-02T09:16:40.500Z', 'tool_use', '', 'shell', 'pytest -q'],
      [33, '2026-02-02T09:16:40.500Z', 'tool_result', 'time_exchange', 'shell', '1 passed in 0.02s'],
      [34, '2026-02-02T09:16:40.500Z', 'system', 'permission_decision', '', 'denied: Add command output to the chat? [n]'],
      [36, '2026-02-02T09:17:05.250Z', 'user', '', '', 'delete the build folder'],
      [38, '2026-02-02T09:17:05.250Z', 'assistant', 'time_exchange', '', '```bash'],
      [42, '2026-02-02T09:17:05.250Z', 'system', 'usage', '', 'Tokens: 2.3k sent, 20 received. Cost: $0.0071 message, $0.015 session.'],
      [43, '2026-02-02T09:17:05.250Z', 'system', 'permission_decision', '', 'denied: Run shell command? [n]'],
    ]);
    // The multi-line prompt is one row; the SEARCH/REPLACE block stays whole in the reply.
    expect(s1.find((r) => r.source_line === 15)?.text).toBe('make add() handle floats\nand keep the docstring');
    expect(s1.find((r) => r.source_line === 18)?.text).toContain('>>>>>>> REPLACE\n```');
    expect(s1.find((r) => r.source_line === 18)?.model).toBe('anthropic/claude-sonnet-4-5');
    expect(s1.find((r) => r.turn_type === 'tool_use')?.tool_use_id).toBe(s1.find((r) => r.turn_type === 'tool_result')?.tool_use_id);
    expect(JSON.stringify(rows)).not.toContain('FAKEaiderCmdline');
  });

  it('second session: architect and editor models, /model switching the model of the replies after it', async () => {
    const { rows } = await run(chat, HOME, '.aider.chat.history.md');
    const s2 = rows.filter((r) => r.session_id.startsWith('20260203T140000'));
    expect(rowsOf(s2)).toEqual([
      [45, '2026-02-03T14:00:00.000Z', 'system', 'session_start', '', 'session start: aider chat started at 2026-02-03 14:00:00 (local time, zone not recorded)'],
      [47, '2026-02-03T14:00:00.000Z', 'system', 'status', '', '/home/dev/.local/bin/aider --architect'],
      [49, '2026-02-03T14:00:00.000Z', 'system', 'model', '', 'model: anthropic/claude-opus-4-5 (architect edit format)'],
      [50, '2026-02-03T14:00:00.000Z', 'system', 'model', '', 'editor model: anthropic/claude-sonnet-4-5 (editor-diff edit format)'],
      [52, '2026-02-03T14:00:30.000Z', 'system', 'slash_command', '', 'slash command: /model openai/gpt-5'],
      [54, '2026-02-03T14:00:30.000Z', 'system', 'status', '', 'Aider v0.86.1'],
      [55, '2026-02-03T14:00:30.000Z', 'system', 'model', '', 'main model: openai/gpt-5 (diff edit format)'],
      [57, '2026-02-03T14:01:00.000Z', 'user', '', '', 'what does calc.py export?'],
      [59, '2026-02-03T14:01:00.000Z', 'assistant', 'time_exchange', '', 'It exports `add`.'],
      [61, '2026-02-03T14:01:00.000Z', 'system', 'usage', '', 'Tokens: 1.0k sent, 8 received.'],
      [63, '2026-02-03T14:02:00.000Z', 'system', 'slash_command', '', 'slash command: /exit'],
    ]);
    expect(s2.find((r) => r.turn_type === 'assistant')?.model).toBe('openai/gpt-5');
  });

  it('the input history: each typed line timed, answers as their own kind, the orphan prompt kept (secondary)', async () => {
    const { rows } = await run(input, HOME, '.aider.input.history');
    expect(rowsOf(rows)).toEqual([
      [2, '2026-02-02T09:15:10.123Z', 'system', 'slash_command', '', 'slash command: /add calc.py'],
      [5, '2026-02-02T09:15:30.000Z', 'user', 'history', '', 'make add() handle floats'],
      [9, '2026-02-02T09:16:40.500Z', 'tool_use', 'history', 'shell', 'pytest -q'],
      [12, '2026-02-02T09:16:45.000Z', 'system', 'confirm_answer', '', 'answer typed: n'],
      [15, '2026-02-02T09:17:05.250Z', 'user', 'history', '', 'delete the build folder'],
      [18, '2026-02-02T09:17:20.000Z', 'system', 'confirm_answer', '', 'answer typed: n'],
      [21, '2026-02-03T14:00:30.000Z', 'system', 'slash_command', '', 'slash command: /model openai/gpt-5'],
      [24, '2026-02-03T14:01:00.000Z', 'user', 'history', '', 'what does calc.py export?'],
      [27, '2026-02-03T14:02:00.000Z', 'system', 'slash_command', '', 'slash command: /exit'],
      [30, '2026-02-04T08:00:00.000Z', 'user', 'history', '', 'a prompt typed in a run whose transcript was deleted'],
    ]);
  });

  it('the config: model, approval and history settings; the key never printed', async () => {
    const { rows } = await run(config, HOME, '.aider.conf.yml');
    expect(rows.map((r) => [r.tag, r.text])).toEqual([
      ['model_setting', 'setting model=anthropic/claude-sonnet-4-5'],
      ['permission_setting', 'setting yes-always=false'],
      ['permission_setting', 'setting auto-commits=true'],
      ['setting', 'setting chat-history-file=.aider.chat.history.md'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
  });
});

describe('aider: the real 0.85.2 history (shared corpus), accounted for', () => {
  const REAL = `${CORPUS}BjornNordblom__pocketflow-text2sql-gui`;
  const text = readFileSync(`${REAL}/.aider.chat.history.md`, 'utf8').split('\n');
  /** Runs of consecutive "#### " lines: what the user (or the architect hand-off) wrote. */
  const inputBlocks = text.filter((l, i) => /^####( |\r?$)/.test(l) && !/^####( |\r?$)/.test(text[i - 1] ?? '')).length;
  const count = (re: RegExp) => text.filter((l) => re.test(l)).length;

  it('every "#### " block is a prompt, a slash command, an architect hand-off or a counted skip; every edit, commit and usage line a row', async () => {
    const skips: string[] = [];
    const ctx = recordingContext();
    const rows = await collectRows((a, c) => parseChatHistory(a, c, { onSkip: (_l, why) => skips.push(why) }), artifactFromFile(REAL, '.aider.chat.history.md'), ctx);
    const n = (pred: (r: Row) => boolean) => rows.filter(pred).length;
    expect(inputBlocks).toBe(63);
    expect(n((r) => r.turn_type === 'user') + n((r) => r.tag === 'slash_command') + n((r) => r.tag === 'architect_handoff') + n((r) => r.turn_type === 'tool_use') + skips.length).toBe(inputBlocks);
    expect(n((r) => r.tag === 'file_change')).toBe(count(/^> Applied edit to /));
    expect(n((r) => r.tag === 'git_commit')).toBe(count(/^> Commit [0-9a-f]{7,} /));
    expect(n((r) => r.tag === 'usage')).toBe(count(/^> Tokens: /));
    expect(n((r) => r.tag === 'session_start')).toBe(count(/^# aider chat started at /));
    expect(rows.filter((r) => !r.timestamp_utc || r.tag === 'bad_line' || /\r/.test(r.text))).toEqual([]);
    expect(ctx.unknowns).toEqual([]);
  });

  it('every typed prompt once: the transcript\'s prompts are the input history\'s, each timed by its entry', async () => {
    const rows = await collectRows(chat, artifactFromFile(REAL, '.aider.chat.history.md'));
    const inputs = await collectRows(input, artifactFromFile(REAL, '.aider.input.history'));
    const typed = inputs.filter((r) => r.turn_type === 'user');
    expect(typed).toHaveLength(31);
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.timestamp_utc])).toEqual(typed.map((r) => [r.text, r.timestamp_utc]));
    expect(inputs.filter((r) => r.tag === 'confirm_answer')).toHaveLength(1);
  });
});

describe('aider: hostile transcripts', () => {
  it('no header, a cut last line, CR line ends, a huge reply and a header with an impossible date: rows, never a throw', async () => {
    const home = homes.make();
    writeFiles(home, {
      '.aider.chat.history.md': `#### typed before any header\r\n\r\n${'r'.repeat(3_000_000)}\r\n\r\n# aider chat started at 2026-13-45 99:99:99\r\n\r\n#### second\r\n\r\n> Tokens: 1 sent, 1 rec`,
    });
    const { rows } = await run(chat, home, '.aider.chat.history.md');
    const users = rows.filter((r) => r.turn_type === 'user');
    expect(users.map((r) => r.text)).toEqual(['typed before any header', 'second']);
    expect(rows.find((r) => r.turn_type === 'assistant')?.text.length).toBeGreaterThan(1000);
    expect(rows.every((r) => !r.text.includes('\r'))).toBe(true);
    expect(rows.at(-1)?.text).toContain('Tokens: 1 sent');
  });

  it('an input history of garbage: bad lines said with their numbers, the good entry kept', async () => {
    const home = homes.make();
    writeFiles(home, { '.aider.input.history': 'garbage line\n\n# 2026-02-02 09:15:10.123456\n+kept\n# not a time\n+orphan' });
    const { rows } = await run(input, home, '.aider.input.history');
    // Any line that is neither ends an entry (prompt_toolkit's reader): "+orphan" is an entry of its own, untimed.
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.timestamp_utc])).toEqual([
      ['kept', '2026-02-02T09:15:10.123Z'],
      ['orphan', ''],
    ]);
    expect(rows.filter((r) => r.tag === 'bad_line').map((r) => r.source_line)).toEqual([1, 5]);
  });
});
