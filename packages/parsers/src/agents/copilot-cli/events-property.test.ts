import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_HANDLERS, SKIPPED_TYPES } from './events-handlers.js';
import { stringifyEventLine } from './test-helpers/events-stringify.js';
import { runEvents } from './test-helpers/events-run.js';

// For any mix of valid (the seed fixture's lines), stringified, truncated, garbage and
// odd-shaped lines: parsing never throws and every physical line is accounted for exactly once
// (rows whose source_line is the line, or one counted skip).

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'fixtures', 'homes', 'seed-copilot', '.copilot', 'session-state', '5e55a0a1-0000-4000-8000-000000000001', 'events.jsonl');
const VALID = readFileSync(FIXTURE, 'utf8').split('\n').slice(0, 34);
const TYPES = [...Object.keys(EVENT_HANDLERS), ...SKIPPED_TYPES, 'model.turn_started', 'subagent.deselected', 'session.truncation', 'nope'];

const noNewline = (s: string) => s.replaceAll('\n', ' ');
const valid = fc.constantFrom(...VALID);
const stringifiedLine = valid.map(stringifyEventLine);
const truncated = fc.tuple(valid, fc.nat()).map(([l, n]) => l.slice(0, n % l.length));
const garbage = fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null')).map(noNewline);
// Known types with random payloads: the handlers meet numbers, arrays, nulls and strings where
// they expect objects, and the reverse.
const oddShape = fc
  .record({ type: fc.constantFrom(...TYPES), data: fc.jsonValue(), timestamp: fc.oneof(fc.constant('2026-10-01T09:00:00.000Z'), fc.jsonValue()) }, { requiredKeys: ['type'] })
  .map((o) => noNewline(JSON.stringify(o)));
const line = fc.oneof(valid, stringifiedLine, truncated, garbage, oddShape);

function physicalLines(text: string): number {
  if (text === '') return 0;
  const parts = text.split('\n');
  return text.endsWith('\n') ? parts.length - 1 : parts.length;
}

describe('events parser, property', () => {
  it('never throws, no handler fails, and every line is accounted for exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 64 }), async (lines, finalNewline, thinking, chunkSize) => {
        const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
        const n = physicalLines(text);
        const run = await runEvents(text, { includeThinking: thinking, chunkSize });
        const rowLines = new Set(run.rows.map((r) => r.source_line));
        const skipLines = run.skips.map((s) => s.line);
        expect(new Set(skipLines).size).toBe(skipLines.length);
        for (const l of skipLines) expect(rowLines.has(l)).toBe(false);
        for (let i = 1; i <= n; i++) expect(rowLines.has(i) || skipLines.includes(i), `line ${i} of ${n}`).toBe(true);
        for (const r of run.rows) expect(r.source_line !== null && r.source_line >= 1 && r.source_line <= n).toBe(true);
        // Handlers take any shape: none fell back to the guard that turns a throw into a bad line.
        expect(run.rows.filter((r) => r.text.startsWith('parser: unparseable line (parser error:')).map((r) => r.text)).toEqual([]);
        const order = run.rows.map((r) => r.source_line ?? 0);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('a valid line and its stringified form give the same rows in any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(valid, { maxLength: 30 }), fc.boolean(), async (lines, thinking) => {
        const a = await runEvents(lines.join('\n'), { includeThinking: thinking });
        const b = await runEvents(lines.map(stringifyEventLine).join('\n'), { includeThinking: thinking });
        expect(b.rows).toEqual(a.rows);
      }),
      { numRuns: 200 },
    );
  });
});
