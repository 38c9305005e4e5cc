import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import type { Row } from '../../sdk/types.js';
import { codexCliPlugin } from './index.js';
import { collectRows, memoryArtifact, recordingContext } from './test-helpers/artifact.js';

// One test per historical layout, over the committed homes (codex-layouts: synthetic files shaped
// like the real ones; codex-live-0171: what the real 0.171.0 wrote).
const LAYOUTS = fileURLToPath(new URL('../../../../../fixtures/homes/codex-layouts/', import.meta.url));
const LIVE = fileURLToPath(new URL('../../../../../fixtures/homes/codex-live-0171/', import.meta.url));
const MTIME = '2026-10-01T10:00:00.000Z';

async function parse(home: string, rel: string, includeThinking = true) {
  const ps = codexCliPlugin.parsers.filter((p) => p.wants(rel));
  expect(ps, rel).toHaveLength(1);
  const ctx = recordingContext(includeThinking);
  const rows = await collectRows(ps[0], artifactFromFile(home, rel, { mtime: MTIME }), ctx);
  return { rows, ctx };
}

const brief = (rows: Row[]) => rows.map((r) => [r.source_line, r.turn_type, r.text.split('\n')[0], r.tool_use_id]);

describe('envelope layout, zstd-compressed and archived (.jsonl.zst)', () => {
  const rel = '.codex/archived_sessions/rollout-2026-09-20T10-00-00-019a1111-0000-7000-8000-000000000003.jsonl.zst';

  it('decompresses as a stream and gives the rows of the plain file, the event copies dropped', async () => {
    const { rows, ctx } = await parse(LAYOUTS, rel);
    expect(brief(rows)).toEqual([
      [1, 'system', 'session start: codex 0.140.0 originator=codex_vscode source=vscode cwd=/srv/archived', ''],
      [1, 'system', 'system prompt: You are Codex.', ''],
      [2, 'system', 'model: gpt-5.4 effort=high summary=auto', ''],
      [2, 'system', 'approval policy: on-failure sandbox=read-only network=- writable_roots=-', ''],
      [3, 'user', 'list the release notes', ''],
      [5, 'tool_use', 'ls notes', 'call_ls'],
      [6, 'tool_result', 'v1.md', 'call_ls'],
      [8, 'assistant', 'Two notes: v1 and v2.', ''],
    ]);
    for (const r of rows) expect([r.session_id, r.project_path, r.git_branch]).toEqual(['019a1111-0000-7000-8000-000000000003', '/srv/archived', 'release']);
    expect(rows[6].tool_name).toBe('local_shell');
    expect(ctx.facts.find((f) => f.key === 'client')?.value).toBe('codex_vscode');
    expect(ctx.warnings).toEqual([]);
  });

  it('a .zst cut short keeps what decoded and says why in one unreadable row', async () => {
    const bytes = readFileSync(`${LAYOUTS}${rel}`);
    const ctx = recordingContext();
    const p = codexCliPlugin.parsers.find((x) => x.name === 'rollout')!;
    const rows = await collectRows(p, memoryArtifact(rel, bytes.subarray(0, bytes.length - 40)), ctx);
    const last = rows.at(-1)!;
    expect(last.tag).toBe('unreadable');
    expect(last.text).toMatch(/^parser: unreadable file \(expected zstd-compressed data, but decoding stopped after \d+ compressed bytes/);
    expect(last.session_id).toBe('019a1111-0000-7000-8000-000000000003');
  });

  it('a file named .zst that is not zstd gives one row naming the bytes found', async () => {
    const rows = await collectRows(codexCliPlugin.parsers[0], memoryArtifact(rel, '{"timestamp":"x"}\n'), recordingContext());
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toMatch(/expected zstd-compressed data \(magic 28 b5 2f fd\), found bytes 7b 22 74 69/);
  });

  it('when the plain file is still beside the .zst, only the plain one is read (Codex prefers it)', async () => {
    const plainRel = rel.replace(/\.zst$/, '');
    const a = memoryArtifact(rel, readFileSync(`${LAYOUTS}${rel}`), { [plainRel]: '{}\n' });
    const ctx = recordingContext();
    expect(await collectRows(codexCliPlugin.parsers[0], a, ctx)).toEqual([]);
    expect(ctx.warnings[0].message).toMatch(/not read: rollout-.*\.jsonl beside it holds the same thread/);
  });
});

describe('the first Rust layout (bare records, no envelope, local time)', () => {
  const rel = '.codex/sessions/2025/08/24/rollout-2025-08-24T15-07-09-0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.jsonl';

  it('reads the bare SessionMeta, items and state markers; rows carry the file time and say so', async () => {
    const { rows } = await parse(LAYOUTS, rel);
    expect(brief(rows)).toEqual([
      [1, 'system', 'session start: codex - originator=- source=- cwd=- started=2025-08-24T15:07:09.961 (local time, offset not recorded)', ''],
      [1, 'system', 'system prompt: Use tabs.', ''],
      [3, 'system', 'context user_instructions: <user_instructions>', ''],
      [4, 'system', 'context environment_context: <environment_context>', ''],
      [4, 'system', 'approval policy: on-request sandbox=workspace-write network=false writable_roots=-', ''],
      [6, 'user', 'can you curl example.org', ''],
      [8, 'tool_use', 'curl -I example.org', 'call_c1'],
      [9, 'tool_result', '[exit 6] curl: (6) Could not resolve host', 'call_c1'],
      [10, 'thinking', 'The network is restricted.', ''],
      [11, 'assistant', 'The sandbox has no network.', ''],
    ]);
    // Its one time is local wall time written with a Z: never used as UTC.
    for (const r of rows) expect(r.timestamp_utc).toBe(MTIME);
    expect(rows.filter((r) => r.tag === 'time_file').length).toBe(rows.length - 2);
    expect(rows[0].tag).toBe('session_start');
    expect(rows[4].tag).toBe('permission_mode');
    // The cwd comes from the environment context, from that line on.
    expect(rows.map((r) => r.project_path)).toEqual(['', '', '', '/Users/me/app', '/Users/me/app', '/Users/me/app', '/Users/me/app', '/Users/me/app', '/Users/me/app', '/Users/me/app']);
    expect(rows.every((r) => r.git_branch === 'main' && r.session_id === '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9')).toBe(true);
  });
});

describe('the TypeScript CLI JSON sessions', () => {
  it('Responses API items: one row each, at the session time (time_session)', async () => {
    const { rows } = await parse(LAYOUTS, '.codex/sessions/rollout-2025-05-02-7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d.json');
    expect(brief(rows)).toEqual([
      [null, 'system', 'session start: codex - originator=- source=- cwd=-', ''],
      [null, 'system', 'system prompt: Prefer small diffs.', ''],
      [1, 'user', 'rename the util', ''],
      [2, 'thinking', 'Find the util first.', ''],
      [3, 'tool_use', 'git mv util.js utils.js', 'call_t1'],
      [4, 'tool_result', '', 'call_t1'],
      [5, 'assistant', 'Renamed util.js to utils.js.', ''],
    ]);
    for (const r of rows) expect(r.timestamp_utc).toBe('2025-05-02T10:00:00.000Z');
    expect(rows.slice(1).every((r) => r.tag === 'time_session')).toBe(true);
    expect(rows[5].tool_name).toBe('shell');
  });

  it('chat-completions messages: tool calls, tool results, reasoning, and the approval-mode notice as a policy row', async () => {
    const { rows } = await parse(LAYOUTS, '.codex/sessions/1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7081.json');
    expect(brief(rows)).toEqual([
      [null, 'system', 'session start: codex - originator=- source=- cwd=-', ''],
      [1, 'user', 'why does the build fail?', ''],
      [2, 'thinking', 'Look at the tree.', ''],
      [2, 'tool_use', 'bash -lc ls', 'call_x1'],
      [3, 'tool_result', 'Cargo.toml', 'call_x1'],
      [4, 'system', 'approval policy: auto-edit (TypeScript CLI notice)', ''],
      [5, 'assistant', 'The field `args` does not exist.', ''],
    ]);
    expect(rows[4].tool_name).toBe('shell');
    expect(rows[5].tag).toBe('permission_mode');
  });

  it('a TypeScript session cut mid-document keeps its complete items and says where it was cut', async () => {
    const rel = '.codex/sessions/1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7081.json';
    const text = readFileSync(`${LAYOUTS}${rel}`, 'utf8');
    const rows = await collectRows(codexCliPlugin.parsers[1], memoryArtifact(rel, text.slice(0, text.indexOf('"role": "tool"'))), recordingContext());
    expect(rows.filter((r) => r.turn_type === 'tool_use')).toHaveLength(1);
    expect(rows.at(-1)?.tag).toBe('unreadable');
    expect(rows.at(-1)?.text).toMatch(/the document is cut after 2 items/);
  });
});

describe('the envelope layout of 0.171.0 (ordinals, world_state, token_usage_record, item_completed)', () => {
  const rel = '.codex/sessions/2026/12/01/rollout-2026-12-01T01-24-43-01a22f34-408b-7b60-b320-fb79d2d90c26.jsonl';

  it('gives each prompt, reply, call and result once, the resume included, and knows every kind', async () => {
    const { rows, ctx } = await parse(LIVE, rel);
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['Run the shell command echo aitrail-live-marker and tell me what it printed.', 'Thanks. Summarise in one line what you just did.']);
    expect(rows.filter((r) => r.turn_type === 'assistant').map((r) => r.text)).toEqual(['I will run the marker command.', 'Done: aitrail-live-marker seen.', 'Hello from the stub model. Nothing to run for this one.']);
    expect(rows.filter((r) => r.turn_type === 'tool_use').map((r) => [r.tool_name, r.text])).toEqual([['exec_command', 'echo aitrail-live-marker']]);
    expect(rows.filter((r) => r.turn_type === 'tool_result').map((r) => r.tool_use_id)).toEqual(['call_stub_mx40l96scm9p2gh8']);
    // item_completed CommandExecution: the command's end, with its real cwd (a file:// URI in the file).
    expect(rows.filter((r) => r.tag === 'exec_end').map((r) => r.text)).toEqual(['exec end: exit=0 source=unified_exec_startup cwd=/home/live-codex-cli/proj duration=0.137437373s command=/bin/bash -lc echo aitrail-live-marker']);
    // The resume's turn_context repeats the policy: no second row.
    expect(rows.filter((r) => r.tag === 'permission_mode').map((r) => r.text)).toEqual(['approval policy: never sandbox=workspace-write network=false writable_roots=-']);
    expect(ctx.unknowns).toEqual([]);
  });
});

describe('what older real builds wrote (0.25.0: first Rust layout; 0.39.0: early envelope)', () => {
  const OLDER = fileURLToPath(new URL('../../../../../fixtures/homes/codex-live-older/', import.meta.url));
  const dirRel = '.codex/sessions/2026/12/01/';
  const cases: [string, string, string[], string[]][] = [
    ['rollout-2026-12-01T02-03-27-7f6de121-f378-4e07-9061-29949af617f7.jsonl', '0.25.0', ['Run the shell command echo aitrail-live-marker and tell me what it printed.'], ['I will run the marker command.', 'Done: aitrail-live-marker seen.']],
    ['rollout-2026-12-01T02-03-56-01a22f58-279e-7181-a391-f1cb7a25591a.jsonl', '0.39.0', ['Run the shell command echo aitrail-live-marker and tell me what it printed.'], ['I will run the marker command.', 'Done: aitrail-live-marker seen.']],
    ['rollout-2026-12-01T02-03-53-01a22f58-1ea9-7250-a0e3-11bd8d0d560c.jsonl', '0.39.0', ['Say hello in one short sentence.'], ['Hello from the stub model. Nothing to run for this one.']],
  ];
  for (const [file, version, prompts, replies] of cases) {
    it(`${version} ${file.slice(28, 36)}: each prompt, reply, call and result once; the policy from the environment context; every kind known`, async () => {
      const { rows, ctx } = await parse(OLDER, dirRel + file);
      expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(prompts);
      expect(rows.filter((r) => r.turn_type === 'assistant').map((r) => r.text)).toEqual(replies);
      const calls = rows.filter((r) => r.turn_type === 'tool_use');
      expect(calls.map((r) => r.text)).toEqual(prompts[0].startsWith('Run') ? ['bash -lc echo aitrail-live-marker'] : []);
      expect(rows.filter((r) => r.turn_type === 'tool_result').map((r) => [r.tool_use_id, r.tool_name, r.text])).toEqual(calls.map((c) => [c.tool_use_id, 'shell', 'aitrail-live-marker\n']));
      expect(rows.filter((r) => r.tag === 'permission_mode').map((r) => r.text)).toEqual(['approval policy: never sandbox=workspace-write network=false writable_roots=-']);
      expect(rows.every((r) => r.project_path === '' || r.project_path === '/home/live-codex-cli/proj')).toBe(true);
      expect(ctx.unknowns).toEqual([]);
    });
  }
});
