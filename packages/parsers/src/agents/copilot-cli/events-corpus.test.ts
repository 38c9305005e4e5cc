import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runEvents, stringified } from './test-helpers/events-run.js';

// Every real events.jsonl of the shared corpus: no throw, every line accounted for, and the user
// rows are exactly the typed prompts, counted here independently of the parser.

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
const CORPUS = join(MAIN, '..', 'shared', 'corpus', 'real');

function findLogs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) findLogs(p, out);
    else if (name === 'events.jsonl') out.push(p);
  }
  return out;
}

/** Typed prompts by the Parser plan's rule, read with plain JSON.parse. */
function typedPrompts(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const e = v as { type?: unknown; agentId?: unknown; data?: Record<string, unknown> };
    if (e.type !== 'user.message') continue;
    const d = e.data ?? {};
    const agentId = e.agentId ?? d.agentId;
    const source = d.source;
    const cont = d.isAutopilotContinuation === true || d.isAutopilotContinuation === 'true';
    if ((agentId === undefined || agentId === null || agentId === '') && (source === undefined || source === null || source === '' || source === 'user') && !cont) n += 1;
  }
  return n;
}

const logs = existsSync(CORPUS) ? findLogs(CORPUS) : [];

describe.skipIf(logs.length === 0)('real corpus events.jsonl', () => {
  it.each(logs.map((p) => [relative(CORPUS, p), p]))('%s: parses, every line accounted for, user rows = typed prompts', async (_name, path) => {
    const text = readFileSync(path, 'utf8');
    const lineCount = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    for (const thinking of [false, true]) {
      const run = await runEvents(text, { includeThinking: thinking, sessionId: basename(dirname(path)) });
      const rowLines = new Set(run.rows.map((r) => r.source_line));
      const skipLines = new Set(run.skips.map((s) => s.line));
      for (let i = 1; i <= lineCount; i++) expect(rowLines.has(i) || skipLines.has(i), `line ${i} accounted for`).toBe(true);
      for (const s of run.skips) expect(rowLines.has(s.line), `line ${s.line} is both a row and a skip`).toBe(false);
      expect(run.rows.filter((r) => r.turn_type === 'user')).toHaveLength(typedPrompts(text));
      expect(run.rows.filter((r) => r.tag === 'bad_line').map((r) => r.text)).toEqual([]);
      expect(run.warnings).toEqual([]);
      expect(run.facts.filter((f) => f.key === 'cwd').length).toBeGreaterThan(0);
    }
  });

  it.each(logs.map((p) => [relative(CORPUS, p), p]))('%s: the stringified encoding gives the same rows', async (_name, path) => {
    const text = readFileSync(path, 'utf8');
    const native = await runEvents(text, { includeThinking: true });
    const str = await runEvents(stringified(text.split('\n')).join('\n'), { includeThinking: true });
    expect(str.rows).toEqual(native.rows);
  });
});

if (logs.length === 0) {
  describe('real corpus', () => {
    it.skip(`no events.jsonl under ${CORPUS}: corpus tests skipped`, () => {});
  });
}
