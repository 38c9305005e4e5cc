import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { parseChat } from './chat-parser.js';
import { geminiCliPlugin } from './index.js';
import { FamilyPaths } from './paths.js';
import { GEMINI_PROFILE } from './profile.js';

// The shared real corpus (Windows ~0.1x–0.3x with the hash-to-slug migration, Linux ~0.5, macOS
// JSONL ≥0.44), read in place, never copied: every file accounted for, every record a row or a
// counted skip, every typed prompt of a chat a user row.

const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus/real/', import.meta.url));
const HOMES = ['fabien-lessirard__dotfiles', 'Tar-ive__brain-system'];
const IRRLICHT = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/gemini-cli/scenarios');
const paths = new FamilyPaths(GEMINI_PROFILE);
type Obj = Record<string, unknown>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** Files no parser wants, and why that is right. */
const NOT_PARSED: Record<string, string> = {
  'installation_id': 'a random id (bookkeeping)',
  'state.json': 'banner and tip counters (bookkeeping)',
  'projects.json': 'the slug registry: read by the parsers as a sibling for project paths',
  '.project_root': 'a slug ownership marker: read by the parsers as a sibling for project paths',
};

/** Records of a chat by plain JSON.parse: JSONL lines, or a legacy file's messages. */
function records(file: string): { count: number; messages: Obj[] } {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return { count: lines.length, messages: lines.map((l) => JSON.parse(l) as Obj).filter((o) => typeof o.id === 'string') };
  }
  const doc = JSON.parse(text) as { messages: Obj[] };
  return { count: doc.messages.length, messages: doc.messages };
}

/** The typed prompts of a chat, as the spec defines them, computed without the parser. */
function typedPrompts(messages: Obj[]): string[] {
  const last = new Map<string, Obj>();
  for (const m of messages) last.set(m.id as string, m);
  const out: string[] = [];
  for (const m of last.values()) {
    if (m.type !== 'user') continue;
    const parts = typeof m.content === 'string' ? [{ text: m.content }] : (m.content as Obj[]);
    const text = parts.filter((p) => typeof p.text === 'string').map((p) => p.text as string).join('\n');
    if (!text || text.startsWith('<session_context>') || text === 'System: Please continue.') continue;
    out.push(text);
  }
  return out;
}

async function chatRows(home: string, rel: string) {
  const skips: { line: number; reason: string }[] = [];
  const rows: Row[] = [];
  for await (const r of parseChat(artifactFromFile(home, rel), recordingContext(true), paths, { onSkip: (line, reason) => skips.push({ line, reason }) })) rows.push(r);
  return { rows, skips };
}

const present = existsSync(CORPUS);

describe.skipIf(!present)('gemini-cli over the real corpus', () => {
  for (const name of HOMES) {
    const home = join(CORPUS, name);
    const rels = present ? files(home).map((f) => relative(home, f).split('\\').join('/')) : [];

    it(`${name}: every file is parsed by exactly one parser or is bookkeeping the parsers read as a sibling`, () => {
      for (const rel of rels) {
        const wanted = geminiCliPlugin.parsers.filter((p) => p.wants(rel));
        const base = rel.split('/').pop()!;
        if (wanted.length === 0) expect(NOT_PARSED[base], `${rel} is not parsed: say why`).toBeDefined();
        else expect(wanted.length, rel).toBe(1);
      }
    });

    it(`${name}: every chat record is rows or a counted skip, every typed prompt a user row`, async () => {
      for (const rel of rels.filter((r) => paths.chat.test(r) || paths.subChat.test(r))) {
        const { count, messages } = records(join(home, rel));
        const { rows, skips } = await chatRows(home, rel);
        const lines = new Set([...rows.map((r) => r.source_line).filter((l) => l !== null), ...skips.map((s) => s.line)]);
        expect(lines.size, `${rel}: records ${count}, rows/skips on ${lines.size} of them`).toBe(count);
        expect(rows.filter((r) => r.tag === 'bad_line'), rel).toEqual([]);
        expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text), rel).toEqual(typedPrompts(messages));
        expect(rows.filter((r) => r.tag === 'session_start').length, rel).toBe(1);
      }
    });

    it(`${name}: every logs.json entry is a user row in its session`, async () => {
      for (const rel of rels.filter((r) => r.endsWith('/logs.json'))) {
        const entries = JSON.parse(readFileSync(join(home, rel), 'utf8')) as Obj[];
        const p = geminiCliPlugin.parsers.find((x) => x.wants(rel))!;
        const rows = await collectRows(p, artifactFromFile(home, rel));
        expect(rows.map((r) => [r.session_id, r.text]), rel).toEqual(entries.map((e) => [e.sessionId, e.message]));
      }
    });
  }

  it('the Windows migration copies resolve to the project the hash names, in its original case', async () => {
    const home = join(CORPUS, 'fabien-lessirard__dotfiles');
    const hashCopy = '.gemini/tmp/56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b/chats/session-2026-02-19T16-11-3c3fa9bf.json';
    const slugCopy = '.gemini/tmp/dashboard-mictlan/chats/session-2026-02-19T16-11-3c3fa9bf.json';
    const a = await chatRows(home, hashCopy);
    const b = await chatRows(home, slugCopy);
    expect(new Set([...a.rows, ...b.rows].map((r) => r.project_path))).toEqual(new Set(['C:\\Users\\acodu\\dev\\dashboard_mictlan']));
    // The slug copy kept writing after the migration: the same rows, plus its summary.
    const key = (r: Row) => `${r.timestamp_utc} ${r.turn_type} ${r.text}`;
    const onlyB = b.rows.filter((r) => !a.rows.some((x) => key(x) === key(r))).map((r) => r.text);
    expect(onlyB).toEqual(['session name: Implement version history for "cahier des charges".']);
    expect(a.rows.length).toBe(b.rows.length - 1);
    const home2 = await chatRows(home, '.gemini/tmp/5c810163bbf1672be0705d5e99f5c2c4b780b54ca1bfab9870a98ac0812cb431/chats/session-2025-10-30T23-33-4c16047e.json');
    expect(home2.rows[0].project_path).toBe('C:\\Users\\acodu');
  });

  it('Irrlicht JSONL recordings (macOS, ≥0.44): every line accounted for, the rows the spec counts', async () => {
    const counts: Record<string, number> = {};
    for (const scenario of readdirSync(IRRLICHT).sort()) {
      for (const rec of readdirSync(join(IRRLICHT, scenario, 'recordings'))) {
        const dir = join(IRRLICHT, scenario, 'recordings', rec);
        // Laid out as the CLI writes it: the recording is a chat file of a slug directory.
        const rel = 'transcript.jsonl';
        const a = { ...artifactFromFile(dir, rel), rel: '.gemini/tmp/cwd-3/chats/session-2026-06-11T21-03-00000000.jsonl', sibling: () => undefined };
        const skips: number[] = [];
        const rows: Row[] = [];
        for await (const r of parseChat(a, recordingContext(true), paths, { onSkip: (line) => skips.push(line) })) rows.push(r);
        const lines = readFileSync(join(dir, rel), 'utf8').split('\n').filter((l) => l.trim() !== '').length;
        expect(new Set([...rows.map((r) => r.source_line), ...skips]).size, scenario).toBe(lines);
        expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text), scenario).toEqual(typedPrompts(records(join(dir, rel)).messages));
        counts[scenario] = rows.length;
      }
    }
    // The spec's prototype: basic turn 6 rows, auto-executed tool call 10.
    expect(counts).toEqual({ '2-1_basic-turn': 6, '2-2_auto-executed-tool-call': 10 });
  });
});
