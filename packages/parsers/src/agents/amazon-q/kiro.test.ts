import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { CORPUS, copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { amazonQPlugin } from './index.js';

const session = amazonQPlugin.parsers[1];
const sidecar = amazonQPlugin.parsers[2];
const homes = tempHomes('kiro');
const A = 'a11ce000-0000-4000-8000-000000000001';
const B = 'a11ce000-0000-4000-8000-000000000002';
const DIR = '.kiro/sessions/cli';
const s = (n: number) => new Date(n * 1000).toISOString();

describe('Kiro CLI session transcript (fixture, the shape of the real 2.5-2.6 recordings)', () => {
  it('gives prompts at their time, replies at the sidecar\'s reply time (else the prompt\'s, tagged), streamed pieces joined, tools and results', async () => {
    const { rows, ctx } = await run(session, copyHome('amazon-q-kiro', homes.make()), `${DIR}/${A}.jsonl`);
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.text, r.tag ?? ''])).toEqual([
      [1, s(1789808400), 'user', '', '', '', 'Reply with the name of the default branch', ''],
      [2, s(1789808401), 'assistant', '', '', 'claude-sonnet-4.5', 'main', ''],
      [3, s(1789808460), 'user', '', '', '', 'Run git log -1 --oneline and tell me the subject', ''],
      [4, s(1789808460), 'tool_use', 'shell', 'tooluse_k1', 'claude-sonnet-4.5', 'git log -1 --oneline', 'time_turn'],
      [5, s(1789808460), 'tool_result', 'shell', 'tooluse_k1', '', '1a2b3c4 fix health check\n', 'time_turn'],
      [6, s(1789808466), 'assistant', '', '', 'claude-sonnet-4.5', 'The subject is "fix health check".', ''],
      [9, s(1789808520), 'user', '', '', '', 'Write NOTES.md with that subject', ''],
      [10, s(1789808520), 'tool_use', 'write', 'tooluse_k2', 'claude-sonnet-4.5', 'create /home/dev/svc/NOTES.md', 'time_turn'],
      [11, s(1789808520), 'tool_result', 'write', 'tooluse_k2', '', '[error] Permission denied: the user rejected this tool use', 'time_turn'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'record Checkpoint', line: 8 }]);
  });

  it('a /rewind fork: its own session, kept turns as they are in it, and its cut last line as a bad_line row', async () => {
    const { rows } = await run(session, copyHome('amazon-q-kiro', homes.make()), `${DIR}/${B}.jsonl`);
    expect(rows.map((r) => [r.session_id, r.turn_type, r.text, r.tag ?? ''])).toEqual([
      [B, 'user', 'Reply with the name of the default branch', ''],
      [B, 'assistant', 'main', ''],
      [B, 'user', 'Reply with the name of the release branch', ''],
      [B, 'assistant', 'release/2026.09', ''],
      [B, 'system', 'parser: unparseable line (invalid JSON): {"version":"v1","kind":"Prompt","data":{"message_id":"p-0006","content":[{"kind":"te', 'bad_line'],
    ]);
  });

  it('the sidecar: the session (reason, parent, agent, model), one row per turn with credits, the standing permissions; cwd, name and client facts', async () => {
    const { rows, ctx } = await run(sidecar, copyHome('amazon-q-kiro', homes.make()), `${DIR}/${B}.json`);
    expect(rows.map((r) => [r.timestamp_utc, r.text, r.tag])).toEqual([
      ['2026-09-19T09:00:00.123Z', `session: Reply with the name of the default branch cwd=/home/dev/svc created_reason=rewind parent=${A} agent=kiro_default`, 'session_start'],
      ['2026-09-19T09:00:00.123Z', 'session name: Reply with the name of the default branch', 'session_name'],
      ['2026-09-19T09:00:01.500Z', 'turn end UserTurnEnd: tokens in/out 0/0 credits=0.0158 requests=1 tool uses=0', 'turn_end'],
      ['2026-09-19T09:05:02.000Z', 'turn end UserTurnEnd: tokens in/out 0/0 credits=0.015 requests=1 tool uses=0', 'turn_end'],
      ['2026-09-19T09:02:30.654Z', 'permission setting: allowed_read_paths=/home/dev/svc', 'permission_setting'],
    ]);
    expect(ctx.facts).toEqual([
      { session_id: B, key: 'cwd', value: '/home/dev/svc', priority: 1 },
      { session_id: B, key: 'name', value: 'Reply with the name of the default branch', priority: 2 },
      { session_id: B, key: 'client', value: 'kiro-cli', priority: 1 },
    ]);
    const a = await run(sidecar, copyHome('amazon-q-kiro', homes.make()), `${DIR}/${A}.json`);
    expect(a.rows.filter((r) => r.tag === 'permission_setting').map((r) => r.text)).toEqual(['permission setting: trusted_tools=shell', 'permission setting: denied_tools=write', 'permission setting: allowed_commands=git log*', 'permission setting: allowed_read_paths=/home/dev/svc']);
  });
});

// The real Kiro CLI recordings (Irrlicht, kiro-cli 2.5.x-2.6.0, macOS), read in place as
// `~/.kiro/sessions/cli/<name>.jsonl` with their sidecar: every record accounted for.
const KIRO = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/kiro-cli/scenarios');

function recordings(): string[] {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return existsSync(KIRO) ? walk(KIRO).filter((f) => f.endsWith('/transcript.jsonl')) : [];
}

/** The recording as a Kiro home would hold it: the rel of a session file, the sidecar as its sibling. */
function asSession(file: string): Artifact {
  const dir = file.slice(0, -'/transcript.jsonl'.length);
  const name = dir.split('/').slice(-3, -2)[0];
  const a = artifactFromFile(dir, 'transcript.jsonl');
  return { ...a, rel: `${DIR}/${name}.jsonl`, sibling: (n: string) => (n === `${name}.json` && existsSync(join(dir, 'transcript.json')) ? artifactFromFile(dir, 'transcript.json') : undefined) };
}

type Rec = { kind: string; data: { message_id: string; content: { kind: string; data: unknown }[] } };

describe.skipIf(recordings().length === 0)('Kiro CLI real recordings (corpus)', () => {
  for (const file of recordings()) {
    const label = file.slice(KIRO.length + 1).split('/')[0];
    it(`${label}: every record is a row or a counted skip; every typed prompt is one user row`, async () => {
      const recs = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Rec);
      const ctx = recordingContext(true);
      const rows: Row[] = await collectRows(session, asSession(file), ctx);
      // Counted without the parser: a record whose message_id an earlier, non-adjacent record used is a repeat (a /rewind fork).
      const seen = new Set<string>();
      let repeats = 0;
      const kept: Rec[] = [];
      recs.forEach((r, i) => {
        const id = r.data.message_id;
        const continues = r.kind === 'AssistantMessage' && i > 0 && recs[i - 1].kind === 'AssistantMessage' && recs[i - 1].data.message_id === id;
        if (seen.has(id) && !continues) repeats++;
        else kept.push(r);
        seen.add(id);
      });
      const items = (kind: string, item: string) => kept.filter((r) => r.kind === kind).flatMap((r) => r.data.content.filter((c) => c.kind === item));
      const prompts = kept.filter((r) => r.kind === 'Prompt').map((r) => r.data.content.filter((c) => c.kind === 'text').map((c) => c.data).join('\n'));
      expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(prompts);
      expect(rows.filter((r) => r.turn_type === 'tool_use').length).toBe(items('AssistantMessage', 'toolUse').length);
      expect(rows.filter((r) => r.turn_type === 'tool_result').length).toBe(items('ToolResults', 'toolResult').length);
      expect(rows.filter((r) => r.text.startsWith('rewind fork:')).length).toBe(repeats > 0 ? 1 : 0);
      expect(rows.filter((r) => r.tag === 'bad_line')).toEqual([]);
      expect(ctx.unknowns).toEqual([]);
      // Every prompt is dated (meta.timestamp); a reply the sidecar names takes its own time.
      expect(rows.filter((r) => r.turn_type === 'user' && r.timestamp_utc === '')).toEqual([]);
    });
  }

  it('the two recordings with a sidecar give the model, and the reply time of every turn the sidecar names; the sidecars read as sessions', async () => {
    const withSide = recordings().filter((f) => existsSync(f.replace(/\.jsonl$/, '.json')));
    expect(withSide.length).toBe(2);
    for (const f of withSide) {
      const side = JSON.parse(readFileSync(f.replace(/\.jsonl$/, '.json'), 'utf8')) as { session_state: { conversation_metadata: { user_turn_metadatas: { message_ids: string[] }[] } } };
      const named = new Set(side.session_state.conversation_metadata.user_turn_metadatas.map((t) => t.message_ids[1]));
      const rows = await collectRows(session, asSession(f), recordingContext(true));
      const replies = rows.filter((r) => r.turn_type === 'assistant');
      expect(replies.every((r) => r.model !== '')).toBe(true);
      // The 1-6 fork's last reply ("three") came after the sidecar copy: it takes its prompt's time.
      const lines = readFileSync(f, 'utf8').split('\n');
      const idOf = (r: Row) => (JSON.parse(lines[(r.source_line ?? 1) - 1]) as Rec).data.message_id;
      expect(replies.filter((r) => r.tag === undefined).map(idOf).sort()).toEqual([...named].filter((id) => replies.some((r) => idOf(r) === id)).sort());
      const sideRows = await collectRows(sidecar, artifactFromFile(f.slice(0, -'/transcript.jsonl'.length), 'transcript.json'), recordingContext(true));
      expect(sideRows[0].tag).toBe('session_start');
      expect(sideRows.filter((r) => r.tag === 'turn_end').length).toBe(side.session_state.conversation_metadata.user_turn_metadatas.length);
    }
  });
});
