import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Parser } from '../../sdk/types.js';
import { geminiCliPlugin } from '../gemini-cli/index.js';
import { qwenCodePlugin } from './index.js';

// Qwen Code runs the Gemini CLI family's parsers under its own id: the same parser names, its own
// paths. Its ChatRecord (uuid/parentUuid, type user|assistant|tool_result|system, subtype) is read by
// the same chat parser. Files from fixtures/homes/gemini-family: two chats of a live 0.24.4 run
// (shared/tools/live-agents/run-qwen-code.sh) and a synthetic one holding the system subtypes.

const HOME = fileURLToPath(new URL('../../../../../fixtures/homes/gemini-family/', import.meta.url));
const P = '.qwen/projects/-home-live-qwen-code-proj';
const LIVE = `${P}/chats/280380ba-b28d-40d2-bf56-9f01c38d82e6.jsonl`;
const SYNTH = `${P}/chats/99999999-0000-4000-8000-000000000009.jsonl`;
const SUB = `${P}/subagents/99999999-0000-4000-8000-000000000009/agent-explore-1.jsonl`;
const parser = (name: string): Parser => qwenCodePlugin.parsers.find((p) => p.name === name)!;

async function rows(rel: string, includeThinking = true) {
  const ctx = recordingContext(includeThinking);
  const p = qwenCodePlugin.parsers.filter((x) => x.wants(rel));
  expect(p.length, rel).toBe(1);
  return { rows: await collectRows(p[0], artifactFromFile(HOME, rel, { mtime: '2026-12-01T03:00:00.000Z' }), ctx), ctx };
}

describe('qwen-code: the family parsers under its own id', () => {
  it('has the Gemini CLI parsers by name, plus usage records, every one with the qwen-code id', () => {
    expect(qwenCodePlugin.parsers.map((p) => p.name)).toEqual([...geminiCliPlugin.parsers.map((p) => p.name), 'usage']);
    expect(qwenCodePlugin.parsers.every((p) => p.agent === 'qwen-code')).toBe(true);
  });

  it('wants its own stores, including the tmp/<sha256>/ layout it inherited, and none of Gemini CLI', () => {
    const wanted = (rel: string) => qwenCodePlugin.parsers.some((p) => p.wants(rel));
    for (const rel of [LIVE, SUB, '.qwen/settings.json', '.qwen/usage_record.jsonl', `.qwen/tmp/${'a'.repeat(64)}/logs.json`, `.qwen/tmp/${'a'.repeat(64)}/shell_history`, `.qwen/tmp/${'a'.repeat(64)}/checkpoints/2025-06-22T10-00-00_000Z-a-edit.json`, 'etc/qwen-code/settings.json', 'C:/ProgramData/qwen-code/system-defaults.json']) {
      expect(wanted(rel), rel).toBe(true);
    }
    for (const rel of [`${P}/meta.json`, `${P}/extract-cursor.json`, '.qwen/oauth_creds.json', '.qwen/debug/s.txt', '.gemini/settings.json', '.gemini/tmp/proj/chats/session-x.jsonl']) expect(wanted(rel), rel).toBe(false);
  });
});

describe('qwen-code chats', () => {
  it('a live 0.24.4 session: prompt, reply with a shell call, the decision telemetry, the result, the resumed turn', async () => {
    const { rows: r, ctx } = await rows(LIVE);
    expect(r.map((x) => [x.source_line, x.turn_type, x.text.split('\n')[0], x.tool_name, x.tag ?? ''])).toEqual([
      [1, 'system', 'session start: version=0.24.4 cwd=/home/live-qwen-code/proj', '', 'session_start'],
      [1, 'user', 'Run the shell command echo aitrail-live-marker and tell me what it printed.', '', ''],
      [4, 'system', 'model: stub-model', '', 'model'],
      [4, 'assistant', 'I will run the marker command.', '', ''],
      [4, 'tool_use', 'echo aitrail-live-marker', 'run_shell_command', ''],
      [5, 'system', 'tool decision: run_shell_command auto_accept', 'run_shell_command', 'permission_decision'],
      [6, 'tool_result', 'Command: echo aitrail-live-marker', 'run_shell_command', ''],
      [8, 'assistant', 'Done: aitrail-live-marker seen.', '', ''],
      [9, 'user', 'Thanks. Summarise in one line what you just did.', '', ''],
      [12, 'assistant', 'Hello from the stub model. Nothing to run for this one.', '', ''],
    ]);
    for (const x of r) expect([x.session_id, x.project_path, x.git_branch]).toEqual(['280380ba-b28d-40d2-bf56-9f01c38d82e6', '/home/live-qwen-code/proj', 'feature/live-run']);
    expect(ctx.facts.map((f) => [f.key, f.value, f.priority, f.at])).toEqual([
      ['cwd', '/home/live-qwen-code/proj', 1, '2026-12-01T01:25:21.117Z'],
      ['branch', 'feature/live-run', 1, '2026-12-01T01:25:21.117Z'],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });

  it('system subtypes: approval mode (yolo), @ command, title once despite its re-anchored copy, slash command, compression, rewind; an unknown subtype reported', async () => {
    const { rows: r, ctx } = await rows(SYNTH);
    expect(r.map((x) => [x.source_line, x.turn_type, x.text, x.tag ?? ''])).toEqual([
      [1, 'system', 'session start: version=0.24.4 cwd=/home/live-qwen-code/proj', 'session_start'],
      [1, 'system', 'permission mode: - -> yolo', 'permission_mode'],
      [2, 'user', 'read @README.md and sum it up', ''],
      [3, 'system', '@ files read: /home/live-qwen-code/proj/README.md', ''],
      [4, 'thinking', 'The user wants a summary.', ''],
      [4, 'system', 'model: qwen3-coder-plus', 'model'],
      [4, 'assistant', 'It is a live-run test project.', ''],
      [5, 'system', 'session name: Summarise README', 'session_name'],
      [6, 'tool_use', '/home/live-qwen-code/proj/NOTES.md', ''],
      [7, 'tool_result', '[cancelled] User declined the change.', ''],
      [8, 'user', '/compress', ''],
      [9, 'system', 'context compressed: 12000 -> 800 tokens', 'compaction'],
      [12, 'system', 'rewind: 2 items dropped (earlier rows stay)', 'rewind'],
      [13, 'system', 'lunar_phase: {"phase":"full"}', ''],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'system subtype lunar_phase', line: 13 }]);
  });

  it('a subagent transcript belongs to its parent session, its start tagged apart, its turns sidechain', async () => {
    const { rows: r, ctx } = await rows(SUB);
    expect(r.map((x) => [x.session_id.slice(0, 8), x.turn_type, x.text, x.tag ?? ''])).toEqual([
      ['99999999', 'system', 'session start: version=0.24.4 cwd=/home/live-qwen-code/proj parent=99999999-0000-4000-8000-000000000009', 'subagent_start'],
      ['99999999', 'user', 'List the files.', 'sidechain'],
      ['99999999', 'system', 'model: qwen3-coder-flash', 'model'],
      ['99999999', 'assistant', 'README.md only.', 'sidechain'],
    ]);
    expect(ctx.facts.every((f) => f.priority === 4)).toBe(true);
  });

  it('usage_record.jsonl: one row per run, in its session and project', async () => {
    const { rows: r, ctx } = await rows('.qwen/usage_record.jsonl');
    expect(r.map((x) => [x.timestamp_utc, x.session_id.slice(0, 8), x.text])).toEqual([
      ['2026-12-01T01:25:13.247Z', 'c8c86544', 'usage: 12682 ms, models=stub-model(2 requests, 108 tokens), tools=0 calls (0 failed), lines +0 -0'],
      ['2026-12-01T01:25:25.618Z', '280380ba', 'usage: 8322 ms, models=stub-model(2 requests, 108 tokens), tools=1 calls (0 failed), lines +0 -0'],
      ['2026-12-01T01:25:36.175Z', '280380ba', 'usage: 4286 ms, models=stub-model(4 requests, 216 tokens), tools=1 calls (0 failed), lines +0 -0'],
    ]);
    expect(ctx.facts.length).toBe(2);
    expect(parser('usage').secondary('.qwen/usage_record.jsonl')).toBe(false);
  });

  it('settings.json: the same keys as Gemini CLI (v4 layout of 0.24.4)', async () => {
    const { rows: r } = await rows('.qwen/settings.json');
    expect(r.map((x) => x.text)).toEqual(['auth: selectedType=openai', 'model setting: stub-model']);
  });
});
