import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copilotEventsParser } from './events-parser.js';
import { stringifyEventLine } from './test-helpers/events-stringify.js';
import { type EventsRun, runEvents } from './test-helpers/events-run.js';

// Property tests over the events parser, beyond its author's: any mix of valid lines (the seed
// fixture's), stringified, truncated, mutated and garbage lines. Hostile whole files (64 MB
// lines, 10 million lines, deep nesting) run end to end in packages/cli/src/e2e/hostile*.test.ts.

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));
const SEED_LOG = join(REPO, 'fixtures/homes/seed-copilot/.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl');
// The seed's last line is cut on purpose; only complete lines are "valid" here.
const VALID = readFileSync(SEED_LOG, 'utf8')
  .split('\n')
  .filter((l) => {
    try {
      return JSON.parse(l) !== null;
    } catch {
      return false;
    }
  });

// Lines that parse to no event at all, so they can change no tracked state.
const garbage: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }).filter((s) => !s.includes('\n')),
  fc.constantFrom('[]', '"text"', '42', 'null', 'true', '{}', '{"type":7}', '{"type":null}', '{"data":{}}', '{"type":"no.such.type","data":{}}', '\uFEFF{bad', '{"a":', '\u0000\u0001', ' ', '\t'),
  fc.constantFrom(...VALID).chain((l) => fc.integer({ min: 1, max: l.length - 1 }).map((n) => l.slice(0, n))),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)).filter((s) => !/"type"\s*:\s*"/.test(s)),
);

async function parse(lines: string[], chunkSize?: number, eol = '\n'): Promise<EventsRun> {
  return runEvents(lines.map((l) => `${l}${eol}`).join(''), { chunkSize, includeThinking: true });
}

// A row without its line number, to compare rows of the same line at two positions.
const unnumbered = (r: Row) => ({ ...r, source_line: null });

function byLine(run: EventsRun): Map<number, Row[]> {
  const m = new Map<number, Row[]>();
  for (const r of run.rows) {
    const k = r.source_line ?? -1;
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return m;
}

// Every physical line gives rows (carrying its number) or one skip, never both, never neither.
function expectAccounted(run: EventsRun, n: number): void {
  const rowLines = new Set(run.rows.map((r) => r.source_line));
  const skipLines = run.skips.map((s) => s.line);
  expect(new Set(skipLines).size, 'a line skipped twice').toBe(skipLines.length);
  for (let i = 1; i <= n; i++) {
    const hasRow = rowLines.has(i);
    const skipped = skipLines.includes(i);
    expect(hasRow !== skipped, `line ${i}: rows=${hasRow} skipped=${skipped}`).toBe(true);
  }
  for (const l of rowLines) expect(l !== null && l >= 1 && l <= n, `row with source_line ${l} of ${n}`).toBe(true);
  expect(run.rows.filter((r) => r.tag === 'unreadable')).toEqual([]);
}

describe('copilot-cli events parser robustness (properties)', () => {
  it('has the seed lines to work with', () => {
    expect(VALID.length).toBeGreaterThanOrEqual(30);
    expect(copilotEventsParser.wants('.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl')).toBe(true);
  });

  it('never throws and accounts for every line, whatever mix of valid, stringified, cut and garbage lines', async () => {
    const line = fc.oneof(fc.constantFrom(...VALID), fc.constantFrom(...VALID).map(stringifyEventLine), garbage);
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), fc.integer({ min: 1, max: 4096 }), fc.constantFrom('\n', '\r\n'), async (lines, chunk, eol) => {
        const run = await parse(lines, chunk, eol);
        expectAccounted(run, lines.length);
      }),
      { numRuns: 300 },
    );
  });

  it("gives a valid line the same rows whatever garbage surrounds it (only the valid lines' state counts)", async () => {
    // A subsequence of the seed log in order, so the tracked state (cwd, model, tool names,
    // permission mode) builds up the same way with or without the garbage.
    const plan = fc.tuple(fc.subarray(VALID.map((_, i) => i), { minLength: 1 }), fc.array(fc.array(garbage, { maxLength: 3 }), { minLength: VALID.length + 1, maxLength: VALID.length + 1 }), fc.boolean());
    await fc.assert(
      fc.asyncProperty(plan, async ([picked, noise, stringify]) => {
        const valid = picked.map((i) => (stringify ? stringifyEventLine(VALID[i]) : VALID[i]));
        const mixed: string[] = [];
        const at: number[] = [];
        valid.forEach((v, k) => {
          mixed.push(...noise[k]);
          mixed.push(v);
          at.push(mixed.length);
        });
        mixed.push(...noise[valid.length]);
        const clean = byLine(await parse(valid));
        const dirty = await parse(mixed);
        expectAccounted(dirty, mixed.length);
        const dirtyBy = byLine(dirty);
        valid.forEach((_, k) => {
          expect((dirtyBy.get(at[k]) ?? []).map(unnumbered), `valid line ${picked[k] + 1} at ${at[k]}`).toEqual((clean.get(k + 1) ?? []).map(unnumbered));
        });
        // Every noise line is a bad line or a skip, never an event row.
        const noiseRows = dirty.rows.filter((r) => !at.includes(r.source_line ?? -1));
        for (const r of noiseRows) expect(r.tag, r.text.slice(0, 80)).toBe('bad_line');
      }),
      { numRuns: 200 },
    );
  });

  it('parses the native and stringified encodings of any valid subsequence to the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(VALID, { minLength: 1 }), async (lines) => {
        const a = await parse(lines);
        const b = await parse(lines.map(stringifyEventLine));
        expect(b.rows).toEqual(a.rows);
      }),
      { numRuns: 100 },
    );
  });

  it('survives odd shapes in known event types: any value at any key of a valid line', async () => {
    // Replace one value somewhere in a valid event with any JSON value (or delete it).
    const mutate = (line: string, path: number[], replacement: unknown, drop: boolean): string => {
      const root = JSON.parse(line) as Record<string, unknown>;
      let node: unknown = root;
      let parent: Record<string, unknown> | unknown[] | null = null;
      let key: string | number = '';
      for (const step of path) {
        if (node === null || typeof node !== 'object') break;
        const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
        if (keys.length === 0) break;
        parent = node as Record<string, unknown>;
        key = keys[step % keys.length];
        node = (node as Record<string | number, unknown>)[key];
      }
      // Keep the envelope's type: that is what routes the line to the handler under test.
      if (parent === null || (parent === root && key === 'type')) return line;
      if (drop && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key as string];
      else (parent as Record<string | number, unknown>)[key] = replacement;
      return JSON.stringify(root);
    };
    const odd = fc.tuple(fc.constantFrom(...VALID), fc.array(fc.nat(20), { minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([l, p, v, d]) => mutate(l, p, v, d));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(odd, fc.constantFrom(...VALID)), { minLength: 1, maxLength: 25 }), async (lines) => {
        const run = await parse(lines);
        expectAccounted(run, lines.length);
        for (const r of run.rows) {
          // Handlers cope with odd shapes themselves; the catch-all "parser error" is for bugs.
          expect(r.text.startsWith('parser: unparseable line (parser error'), r.text.slice(0, 200)).toBe(false);
          expect(typeof r.text).toBe('string');
          expect(r.timestamp_utc === '' || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(r.timestamp_utc), r.timestamp_utc).toBe(true);
          for (const k of ['session_id', 'project_path', 'git_branch', 'model', 'tool_name', 'tool_use_id'] as const) expect(typeof r[k], k).toBe('string');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads the same rows whatever the chunking of the bytes and the line endings', async () => {
    const whole = await parse(VALID);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 512 }), fc.constantFrom('\n', '\r\n'), async (chunk, eol) => {
        const run = await parse(VALID, chunk, eol);
        expect(run.rows).toEqual(whole.rows);
      }),
      { numRuns: 50 },
    );
  });
});
