import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { codexCliPlugin } from './index.js';
import { notParsedReason } from './paths.js';
import { parseRollout } from './rollout.js';
import { CORPUS, collectRows, diskArtifact, recordingContext } from './test-helpers/artifact.js';

// Every Codex file of the shared real corpus, read in place (never copied): each is either read by
// one parser (its lines all accounted for: rows, or one counted skip) or named with the reason no
// parser reads it.
type Obj = Record<string, unknown>;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** [path on disk, rel as collected] of every Codex file in the corpus. */
function corpusFiles(): [string, string][] {
  if (!existsSync(CORPUS)) return [];
  const out: [string, string][] = [];
  for (const owner of readdirSync(CORPUS).sort()) {
    const home = join(CORPUS, owner, '.codex');
    if (existsSync(home)) for (const f of walk(home).sort()) out.push([f, f.slice(join(CORPUS, owner).length + 1)]);
  }
  // Irrlicht's recordings are single rollouts (a rollout's content each); collected, they would sit under sessions/.
  const irr = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/codex/scenarios');
  if (existsSync(irr)) {
    for (const f of walk(irr).filter((x) => x.endsWith('transcript.jsonl')).sort()) {
      const first = JSON.parse(readFileSync(f, 'utf8').split('\n')[0]) as Obj;
      const id = String((first.payload as Obj).id);
      out.push([f, `.codex/sessions/2026/05/23/rollout-2026-05-23T00-00-00-${id}.jsonl`]);
    }
  }
  return out;
}

const files = corpusFiles();
const lines = (f: string): Obj[] => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Obj);
const payload = (o: Obj): Obj => (o.payload as Obj) ?? o;

/** The prompts a user typed, computed from the file with plain JSON: the UI's own record of them when it wrote one. */
function typedPrompts(ls: Obj[]): string[] {
  const events = ls.filter((o) => o.type === 'event_msg' && payload(o).type === 'user_message').map((o) => String(payload(o).message));
  if (events.length > 0) return events;
  const completed = ls.filter((o) => o.type === 'event_msg' && payload(o).type === 'item_completed' && (payload(o).item as Obj).type === 'UserMessage');
  if (completed.length > 0) return completed.map((o) => ((payload(o).item as Obj).content as Obj[]).map((c) => String(c.text)).join('\n'));
  // The first Rust layout has only the items: a user message that is not injected context.
  return ls
    .map(payload)
    .filter((p) => p.type === 'message' && p.role === 'user')
    .map((p) => (p.content as Obj[]).map((c) => String(c.text)).join('\n'))
    .filter((t) => !/^\s*(?:<|# AGENTS\.md instructions)/.test(t));
}

/** Call ids of the file's tool calls and of their outputs. */
function callIds(ls: Obj[]): { calls: string[]; outputs: string[] } {
  const ps = ls.map(payload);
  const calls = ps.filter((p) => ['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'].includes(String(p.type))).map((p) => String(p.call_id));
  const outputs = ps.filter((p) => ['function_call_output', 'custom_tool_call_output', 'tool_search_output'].includes(String(p.type))).map((p) => String(p.call_id));
  return { calls, outputs };
}

describe.skipIf(files.length === 0)('the shared real corpus: every Codex file accounted for', () => {
  it('finds the four sources (Xu-Wentao, JaydenXsoe, ADIOCLASSMATE, Irrlicht)', () => {
    const owners = new Set(files.map(([f]) => f.slice(CORPUS.length).split('/')[0]));
    expect([...owners].sort()).toEqual(['ADIOCLASSMATE__dotfile', 'JaydenXsoe__ocodex', 'Xu-Wentao__dotfile', 'ingo-eichhorst__Irrlicht']);
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it('each file is read by exactly one parser, or has a reason why none reads it', () => {
    for (const [, rel] of files) {
      const ps = codexCliPlugin.parsers.filter((p) => p.wants(rel));
      expect(ps.length, rel).toBeLessThanOrEqual(1);
      if (ps.length === 0) expect(notParsedReason(rel), rel).not.toBe('');
    }
  });

  for (const [path, rel] of files.filter(([, r]) => /rollout-[^/]+\.jsonl$/.test(r))) {
    const label = path.slice(CORPUS.length);
    describe(label, () => {
      const run = async (includeThinking: boolean) => {
        const skipped = new Map<number, string>();
        const ctx = recordingContext(includeThinking);
        const rows: Row[] = await collectRows((a, c) => parseRollout(a, c, { onSkip: (n, why) => skipped.set(n, why) }), diskArtifact(path, rel), ctx);
        return { rows, skipped, ctx, ls: lines(path) };
      };

      it('every line gives rows or one counted skip, never both; no bad line, no unknown kind', async () => {
        const { rows, skipped, ctx, ls } = await run(true);
        const withRows = new Set(rows.map((r) => r.source_line));
        for (let n = 1; n <= ls.length; n++) expect(withRows.has(n) !== skipped.has(n), `line ${n}: rows=${withRows.has(n)} skip=${skipped.get(n)}`).toBe(true);
        expect(rows.filter((r) => r.tag === 'bad_line' || r.tag === 'unreadable')).toEqual([]);
        expect(ctx.unknowns).toEqual([]);
      });

      it('gives every typed prompt once, in order, and no other user row', async () => {
        const { rows, ls } = await run(false);
        expect(rows.filter((r) => r.turn_type === 'user' && r.tag !== 'user_shell').map((r) => r.text)).toEqual(typedPrompts(ls));
      });

      it('gives every tool call id once as a call and every output as a result with the call’s tool name', async () => {
        const { rows, ls } = await run(false);
        const { calls, outputs } = callIds(ls);
        expect(rows.filter((r) => r.turn_type === 'tool_use' && r.tool_use_id).map((r) => r.tool_use_id)).toEqual(calls);
        const results = rows.filter((r) => r.turn_type === 'tool_result');
        expect(results.map((r) => r.tool_use_id)).toEqual(outputs);
        for (const r of results) expect(r.tool_name, r.tool_use_id).not.toBe('');
      });
    });
  }

  it('the other files: each read without a bad or unreadable row, every line of the JSONL stores a row', async () => {
    let checked = 0;
    for (const [path, rel] of files) {
      const ps = codexCliPlugin.parsers.filter((p) => p.wants(rel));
      if (ps.length === 0 || ps[0].name === 'rollout') continue;
      const ctx = recordingContext(true);
      const rows = await collectRows(ps[0], diskArtifact(path, rel), ctx);
      expect(rows.filter((r) => r.tag === 'bad_line' || r.tag === 'unreadable'), rel).toEqual([]);
      expect(ctx.unknowns, rel).toEqual([]);
      if (/(?:history|session_index)\.jsonl$/.test(rel)) expect(rows.length, rel).toBe(lines(path).length);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('the TypeScript sessions: every typed prompt once and every tool call id', async () => {
    for (const [path, rel] of files.filter(([, r]) => /\/sessions\/rollout-\d{4}-\d{2}-\d{2}-[^/]+\.json$/.test(r))) {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { items: Obj[] };
      const rows = await collectRows(codexCliPlugin.parsers.find((p) => p.name === 'legacy-session')!, diskArtifact(path, rel), recordingContext(false));
      const typed = doc.items.filter((i) => i.role === 'user').map((i) => (i.content as Obj[]).map((c) => String(c.text)).join('\n'));
      expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text), rel).toEqual(typed);
      const ids = doc.items.flatMap((i) => ((i.tool_calls as Obj[] | undefined) ?? []).map((c) => String(c.id)));
      expect(rows.filter((r) => r.turn_type === 'tool_use').map((r) => r.tool_use_id), rel).toEqual(ids);
      const results = doc.items.filter((i) => i.role === 'tool').map((i) => String(i.tool_call_id));
      expect(rows.filter((r) => r.turn_type === 'tool_result').map((r) => r.tool_use_id), rel).toEqual(results);
    }
  });
});
