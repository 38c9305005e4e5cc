import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { memoryArtifact, recordingContext } from './test-helpers/context.js';
import { MAIN_REL } from './test-helpers/lines.js';
import { parseTranscript } from './transcript.js';

const TYPES = ['user', 'assistant', 'system', 'attachment', 'progress', 'queue-operation', 'permission-mode', 'ai-title', 'custom-title', 'summary', 'file-history-snapshot', 'last-prompt', 'worktree-state', 'relocated', 'mode', 'x-unknown'];
const anyValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 6 }), fc.string(), { maxKeys: 3 }));
const block = fc.record({ type: fc.constantFrom('text', 'thinking', 'tool_use', 'tool_result', 'image', 'redacted_thinking', 'web_search_tool_result', 'odd'), text: anyValue, id: fc.constantFrom('t1', 't2', 7), tool_use_id: fc.constantFrom('t1', 't2'), content: anyValue, input: anyValue, is_error: anyValue }, { requiredKeys: ['type'] });
const record = fc.record(
  {
    type: fc.constantFrom(...TYPES),
    uuid: fc.constantFrom('u1', 'u2', 'u3', undefined),
    parentUuid: fc.constantFrom(null, 'u1'),
    timestamp: fc.constantFrom('2026-10-01T10:00:00.000Z', 'not a time', 5, undefined),
    cwd: fc.constantFrom('/srv/a', '', 3, undefined),
    gitBranch: fc.constantFrom('main', '', null),
    subtype: fc.constantFrom('compact_boundary', 'api_error', 'turn_duration', 'local_command', 'weird'),
    message: fc.record({ model: fc.constantFrom('claude-opus-4-7', '<synthetic>', 1), id: fc.constantFrom('m1', 'm2'), content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), anyValue) }, { requiredKeys: [] }),
    attachment: fc.record({ type: fc.constantFrom('queued_command', 'hook_success', 'file', 'skill_listing'), prompt: anyValue, origin: anyValue }, { requiredKeys: [] }),
    operation: fc.constantFrom('enqueue', 'dequeue', 'remove'),
    content: anyValue,
    permissionMode: anyValue,
    aiTitle: anyValue,
    snapshot: anyValue,
    isMeta: anyValue,
  },
  { requiredKeys: ['type'] },
);
const line = fc.oneof(
  { weight: 6, arbitrary: record.map((r) => JSON.stringify(r)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: record.map((r) => JSON.stringify(r).slice(0, 20)) },
  { weight: 1, arbitrary: fc.constantFrom('[]', 'null', '"x"', '42', '   ', '{"type":"user","message":{"content":"\uD800"}}') },
);

async function run(body: string, includeThinking: boolean) {
  const rows: Row[] = [];
  const skipped = new Map<number, string>();
  for await (const r of parseTranscript(memoryArtifact(MAIN_REL, body), recordingContext(includeThinking), { onSkip: (n, w) => skipped.set(n, w) })) rows.push(r);
  return { rows, skipped };
}

describe('transcript parser robustness', () => {
  it('never throws on any mix of records, garbage and cut lines, and accounts for every line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 25 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean(), async (lines, nl, trailing, thinking) => {
        const body = lines.join(nl) + (trailing && lines.length > 0 ? nl : '');
        const { rows, skipped } = await run(body, thinking);
        const physical = body === '' ? 0 : body.split('\n').length - (body.endsWith('\n') ? 1 : 0);
        const withRows = new Set(rows.map((r) => r.source_line));
        for (let n = 1; n <= physical; n++) expect(withRows.has(n) || skipped.has(n), `line ${n}`).toBe(true);
        for (const r of rows) {
          for (const k of ['timestamp_utc', 'session_id', 'project_path', 'git_branch', 'model', 'tool_name', 'tool_use_id', 'text'] as const) expect(typeof r[k]).toBe('string');
          expect(r.source_line).toBeGreaterThanOrEqual(1);
          expect(r.source_line).toBeLessThanOrEqual(physical);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same rows however the bytes are chunked', async () => {
    const body = `${JSON.stringify({ type: 'user', uuid: 'a', timestamp: '2026-10-01T10:00:00.000Z', message: { content: 'héllo ✓ 🎉' } })}\n{cut`;
    const whole = (await run(body, true)).rows;
    for (const size of [1, 2, 3, 5, 64]) {
      const bytes = Buffer.from(body);
      const a = {
        ...memoryArtifact(MAIN_REL, ''),
        async *stream() {
          for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
        },
      };
      const rows: Row[] = [];
      for await (const r of parseTranscript(a, recordingContext(true))) rows.push(r);
      expect(rows, `chunk ${size}`).toEqual(whole);
    }
    expect(whole.map((r) => r.text)).toEqual(['héllo ✓ 🎉', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {cut']);
  });
});
