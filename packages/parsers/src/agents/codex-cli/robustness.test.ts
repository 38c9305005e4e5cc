import { describe, expect, it } from 'vitest';
import { codexCliPlugin } from './index.js';
import { collectRows, memoryArtifact, recordingContext } from './test-helpers/artifact.js';

// Hostile and damaged inputs: every parser keeps going, says what it could not read, never throws.
const SID = '019a5555-0000-7000-8000-000000000001';
const ROLLOUT = `.codex/sessions/2026/10/03/rollout-2026-10-03T10-00-00-${SID}.jsonl`;
const rollout = codexCliPlugin.parsers.find((p) => p.name === 'rollout')!;

describe('rollouts with damaged lines', () => {
  it('garbage, NULs, non-objects and wrong types: bad-line rows with the line, the good lines still read', async () => {
    const meta = JSON.stringify({ timestamp: '2026-10-03T08:00:00.000Z', type: 'session_meta', payload: { id: SID, cwd: '/w' } });
    const body = [
      '\uFEFF' + meta,
      'not json at all',
      '\0\0\0\0',
      '[1,2,3]',
      JSON.stringify({ timestamp: 5, type: 'response_item', payload: 'a string payload' }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: 12 } }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:02.000Z', type: 'response_item', payload: { type: 'function_call', name: 7, arguments: { cmd: 'ls' }, call_id: null } }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:03.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'x', output: 42 } }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:04.000Z', type: 'turn_context', payload: { model: ['x'], approval_policy: { granular: { sandbox: true } }, sandbox_policy: 'read-only' } }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:05.000Z', type: 'event_msg', payload: { type: 'patch_apply_end', changes: 'none' } }),
      JSON.stringify({ timestamp: '2026-10-03T08:00:06.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'still here' }] } }),
    ].join('\r\n');
    const ctx = recordingContext();
    const rows = await collectRows(rollout, memoryArtifact(ROLLOUT, body), ctx);
    const bad = rows.filter((r) => r.tag === 'bad_line');
    expect(bad.map((r) => [r.source_line, r.text])).toEqual([
      [2, 'parser: unparseable line (invalid JSON): not json at all'],
      [3, 'parser: unparseable line (only NUL bytes (4)): '],
      [4, 'parser: unparseable line (not a JSON object: an array): [1,2,3]'],
    ]);
    expect(rows.find((r) => r.source_line === 8)?.text).toBe('42');
    expect(rows.find((r) => r.source_line === 7)?.text).toBe('{"cmd":"ls"}');
    expect(rows.find((r) => r.source_line === 9 && r.tag === 'permission_mode')?.text).toBe('approval policy: {"granular":{"sandbox":true}} sandbox=read-only network=- writable_roots=-');
    expect(rows.at(-1)?.text).toBe('still here');
    expect(rows.every((r) => r.session_id === SID)).toBe(true);
  });

  it('a line too long to hold is a bad-line row with a preview; the next line is read', async () => {
    const huge = JSON.stringify({ timestamp: '2026-10-03T08:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'y'.repeat(300_000) }] } });
    const { parseRollout } = await import('./rollout.js');
    // Through the SDK reader with a small cap, as a 256 MiB line would be in the field.
    const { readJsonLines } = await import('../../sdk/line-reader.js');
    const seen: string[] = [];
    for await (const l of readJsonLines(memoryArtifact(ROLLOUT, `${huge}\n{"a":1}\n`).stream(), { maxLineBytes: 100_000 })) seen.push(l.error ?? 'ok');
    expect(seen[0]).toMatch(/line longer than 100000 bytes/);
    expect(seen[1]).toBe('ok');
    // And the parser itself holds a 300 KB prompt whole.
    const rows = await collectRows((a, c) => parseRollout(a, c), memoryArtifact(ROLLOUT, `${huge}\n`), recordingContext());
    expect(rows[0].text).toHaveLength(300_000);
  });

  it('an empty file and a file of blank lines give no row', async () => {
    expect(await collectRows(rollout, memoryArtifact(ROLLOUT, ''), recordingContext())).toEqual([]);
    expect(await collectRows(rollout, memoryArtifact(ROLLOUT, '\n\n  \n'), recordingContext())).toEqual([]);
  });
});

describe('every parser on bytes that are not its format', () => {
  const bodies: [string, string | Buffer][] = [
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x0a, 0x41])],
    ['json of the wrong shape', '{"hooks":[],"records":7,"items":"x","session":1}'],
    ['truncated json', '{"records":[{"source_path":"/a"'],
    ['a JSON array', '[null, 1, "x", {"command": 5}]'],
  ];
  const rels: Record<string, string> = {
    rollout: ROLLOUT,
    'legacy-session': `.codex/sessions/${SID}.json`,
    history: '.codex/history.jsonl',
    'session-index': '.codex/session_index.jsonl',
    config: '.codex/config.toml',
    rules: '.codex/rules/default.rules',
    'desktop-stores': '.codex/external_agent_session_imports.json',
    logs: '.codex/log/codex-tui.log',
  };
  for (const [name, rel] of Object.entries(rels)) {
    it(`${name}: never throws; what it could not read is a row that says so or a warning`, async () => {
      const p = codexCliPlugin.parsers.find((x) => x.name === name)!;
      expect(p.wants(rel)).toBe(true);
      for (const [label, body] of bodies) {
        const ctx = recordingContext();
        const rows = await collectRows(p, memoryArtifact(rel, body), ctx);
        for (const r of rows) expect(typeof r.text, `${name} on ${label}`).toBe('string');
        const said = rows.some((r) => r.tag === 'bad_line' || r.tag === 'unreadable') || ctx.warnings.length > 0 || ctx.unknowns.length > 0 || name === 'logs' || name === 'rules';
        expect(said, `${name} on ${label}: ${JSON.stringify(rows.map((r) => r.text))}`).toBe(true);
      }
    });
  }
});
