import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { memoryArtifact, recordingContext } from './test-helpers/context.js';
import { parseTranscript } from './transcript.js';

// Real Claude Code 2.1.1xx transcripts recorded by Irrlicht's harness; read in place, never copied.
const ROOT = fileURLToPath(new URL('../../../../../../shared/corpus/real/ingo-eichhorst__Irrlicht/replaydata/agents/claudecode/scenarios/', import.meta.url));

function recordings(): string[] {
  if (!existsSync(ROOT)) return [];
  const out: string[] = [];
  for (const scenario of readdirSync(ROOT).sort()) {
    const dir = join(ROOT, scenario, 'recordings');
    if (!existsSync(dir)) continue;
    for (const rec of readdirSync(dir).sort()) {
      const f = join(dir, rec, 'transcript.jsonl');
      if (existsSync(f)) out.push(f);
    }
  }
  return out;
}

type Obj = Record<string, unknown>;
const files = recordings();

// The spec's rule for a typed prompt, computed with plain JSON.parse: a user line (first time its
// uuid occurs) whose content is a string, not isMeta, not isCompactSummary, not a wrapper; and a
// command envelope as `/name args`.
function expectedPrompts(lines: Obj[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const o of lines) {
    if (typeof o.uuid === 'string') {
      if (seen.has(o.uuid)) continue;
      seen.add(o.uuid);
    }
    const content = (o.message as Obj | undefined)?.content;
    if (o.type !== 'user' || typeof content !== 'string' || o.isMeta === true || o.isCompactSummary === true) continue;
    const name = /^<command-name>([^<]*)<\/command-name>/.exec(content);
    if (name) {
      const args = /<command-args>([^<]*)<\/command-args>/.exec(content)?.[1] ?? '';
      out.push(args.trim() ? `${name[1]} ${args}` : name[1]);
    } else if (!content.startsWith('<') && !content.startsWith('[Request interrupted')) out.push(content);
  }
  return out;
}

// Distinct content blocks of assistant lines, by message id and block (tool_use by its id).
function distinctBlocks(lines: Obj[], includeThinking: boolean): number {
  const keys = new Set<string>();
  const seen = new Set<string>();
  for (const o of lines) {
    if (o.type !== 'assistant' || typeof o.uuid !== 'string' || seen.has(o.uuid)) continue;
    seen.add(o.uuid);
    const m = o.message as Obj;
    for (const b of m.content as Obj[]) {
      if (!includeThinking && b.type === 'thinking') continue;
      keys.add(`${m.id}|${b.type === 'tool_use' ? b.id : JSON.stringify(b)}`);
    }
  }
  return keys.size;
}

async function parseRecording(file: string, includeThinking = true) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Obj);
  const sid = String(lines.find((o) => typeof o.sessionId === 'string')?.sessionId);
  const a = { ...memoryArtifact(`.claude/projects/-corpus/${sid}.jsonl`, ''), stream: () => createReadStream(file) };
  const ctx = recordingContext(includeThinking);
  const skipped = new Map<number, string>();
  const rows: Row[] = [];
  for await (const r of parseTranscript(a, ctx, { onSkip: (n, why) => skipped.set(n, why) })) rows.push(r);
  return { lines, rows, skipped, ctx, sid };
}

describe.skipIf(files.length === 0)('Irrlicht corpus: real Claude Code transcripts', () => {
  it('finds the recordings', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const file of files) {
    const label = file.slice(ROOT.length).split('/')[0];
    describe(label, () => {
      it('accounts for every line: rows or one counted skip, never both; no bad line', async () => {
        const { lines, rows, skipped, ctx } = await parseRecording(file);
        // Every kind of the 2.1.1xx recordings is known: nothing is counted as unknown.
        expect(ctx.unknowns).toEqual([]);
        const withRows = new Set(rows.map((r) => r.source_line));
        for (let n = 1; n <= lines.length; n++) {
          expect(withRows.has(n) !== skipped.has(n), `line ${n} (${String(lines[n - 1].type)}): rows=${withRows.has(n)} skip=${skipped.get(n)}`).toBe(true);
        }
        expect(rows.filter((r) => r.tag === 'bad_line')).toEqual([]);
        expect(Math.max(0, ...rows.map((r) => r.source_line ?? 0))).toBeLessThanOrEqual(lines.length);
      });

      it('gives every typed prompt as a user row, in file order, and no other user row', async () => {
        const { lines, rows } = await parseRecording(file);
        const prompts = expectedPrompts(lines);
        expect(prompts.length).toBeGreaterThan(0);
        expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(prompts);
      });

      it('gives each content block of a response once', async () => {
        for (const thinking of [true, false]) {
          const { lines, rows } = await parseRecording(file, thinking);
          const blockRows = rows.filter((r) => ['assistant', 'thinking', 'tool_use'].includes(r.turn_type));
          expect(blockRows).toHaveLength(distinctBlocks(lines, thinking));
          const ids = rows.filter((r) => r.turn_type === 'tool_use').map((r) => r.tool_use_id);
          expect(new Set(ids).size).toBe(ids.length);
        }
      });

      it('names the tool on every result, dates every row, and reports the latest cwd at priority 1', async () => {
        const { lines, rows, ctx, sid } = await parseRecording(file);
        for (const r of rows.filter((x) => x.turn_type === 'tool_result')) expect(r.tool_name, r.tool_use_id).not.toBe('');
        for (const r of rows) expect(r.timestamp_utc, r.text.slice(0, 60)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        for (const r of rows) expect(r.session_id).toBe(sid);
        const cwds = lines.map((o) => o.cwd).filter((c): c is string => typeof c === 'string');
        const cwdFacts = ctx.facts.filter((f) => f.key === 'cwd' && f.priority === 1);
        expect(cwdFacts.at(-1)?.value).toBe(cwds.at(-1));
        // The project folder's name is never decoded into a path: every project_path is a real cwd.
        for (const r of rows) if (r.project_path) expect(cwds).toContain(r.project_path);
      });
    });
  }
});
