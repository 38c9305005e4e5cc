import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { vscodeCopilotChatPlugin } from './index.js';

// Every file of the shared real corpus of this agent (shared/corpus/real/PROVENANCE.md:
// aholicg/Debian, Copilot Chat 0.33.2; harrybirdnz/dev, 0.30.3) accounted for: each is read by one
// parser or joined (workspace.json); every request's prompt is one user row, every Markdown part
// of its reply is in one assistant row, every tool part one tool_use row, every round call either
// paired with a part or given from its round; the index, history, edit state and log lines counted.

const REAL = join(import.meta.dirname, '../../../../../../shared/corpus/real');
const HOMES = ['aholicg__Debian', 'harrybirdnz__dev'];
// biome-ignore lint/suspicious/noExplicitAny: the real files are walked as loosely typed JSON, checked by the assertions
type J = Record<string, any>;

function walk(d: string): string[] {
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const files = HOMES.flatMap((h) => walk(join(REAL, h, '.config', 'Code')).map((f) => ({ home: join(REAL, h), rel: relative(join(REAL, h), f).split('\\').join('/') })));

async function parse(home: string, rel: string) {
  const ctx = recordingContext(true);
  const ps = vscodeCopilotChatPlugin.parsers.filter((p) => p.wants(rel));
  const rows: Row[] = [];
  for (const p of ps) rows.push(...(await collectRows(p, artifactFromFile(home, rel), ctx)));
  return { ps, rows, ctx };
}

describe('the real corpus, file by file', () => {
  it('has the 14 files PROVENANCE lists for these homes', () => {
    expect(files).toHaveLength(14);
  });

  for (const { home, rel } of files) {
    it(`accounts for ${home.split('/').pop()}/${rel}`, async () => {
      const { ps, rows, ctx } = await parse(home, rel);
      expect([ctx.warnings, ctx.unknowns]).toEqual([[], []]);
      expect(rows.filter((r) => r.tag === 'bad_line' || r.tag === 'unreadable')).toEqual([]);
      const raw = rel.endsWith('.vscdb') ? null : readFileSync(join(home, rel), 'utf8');
      if (rel.endsWith('/workspace.json')) {
        // Not parsed: joined as the project of every file of its workspace folder (checked below).
        expect(ps).toEqual([]);
        return;
      }
      expect(ps).toHaveLength(1);
      const name = ps[0].name;
      if (name === 'chat-session') {
        const s = JSON.parse(raw!) as J;
        const folder = rel.includes('/workspaceStorage/') ? JSON.parse(readFileSync(join(home, rel.replace(/chatSessions\/[^/]+$/, 'workspace.json')), 'utf8')).folder.replace('file://', '') : '';
        expect(new Set(rows.map((r) => `${r.session_id}|${r.project_path}`))).toEqual(new Set([`${s.sessionId}|${folder}`]));
        expect(rows.filter((r) => r.tag === 'session_start')).toHaveLength(1);
        s.requests.forEach((q: J, i: number) => {
          const mine = rows.filter((r) => r.source_line === i);
          expect(mine.filter((r) => r.turn_type === 'user').map((r) => r.text), `request ${i} prompt`).toEqual([q.message.text]);
          // Every Markdown part of the reply, in order, in the request's assistant rows.
          const replies = mine.filter((r) => r.turn_type === 'assistant').map((r) => r.text).join('\n');
          let from = 0;
          for (const p of q.response) {
            if (p.kind !== undefined || p.value.trim() === '') continue;
            const at = replies.indexOf(p.value.trim(), from);
            expect(at, `request ${i} reply part ${JSON.stringify(p.value.slice(0, 40))}`).toBeGreaterThanOrEqual(0);
            from = at + p.value.trim().length;
          }
          const parts = q.response.filter((p: J) => p.kind === 'toolInvocationSerialized');
          expect(mine.filter((r) => r.turn_type === 'tool_use' && parts.some((p: J) => p.toolId === r.tool_name))).toHaveLength(parts.length);
          expect(mine.filter((r) => r.tag === 'permission_decision')).toHaveLength(parts.length);
          expect(mine.filter((r) => r.tag === 'file_changed')).toHaveLength(q.response.filter((p: J) => p.kind === 'textEditGroup').length);
          expect(mine.filter((r) => r.tag === 'edited_file_event')).toHaveLength(q.editedFileEvents?.length ?? 0);
          expect(mine.filter((r) => r.tag === 'feedback')).toHaveLength(q.vote === undefined ? 0 : 1);
        });
        // Every round call is shown once: paired with a part (its id) or from its round alone.
        const calls = s.requests.flatMap((q: J) => (q.result?.metadata?.toolCallRounds ?? []).flatMap((r: J) => r.toolCalls.map((c: J) => c.id.split('__vscode-')[0])));
        const uses = rows.filter((r) => r.turn_type === 'tool_use').map((r) => r.tool_use_id);
        for (const id of calls) expect(uses.filter((u) => u === id), id).toHaveLength(1);
        expect(rows.filter((r) => r.tag === 'session_name').map((r) => r.text)).toEqual(s.customTitle ? [`session name: ${s.customTitle}`] : []);
      } else if (name === 'editing-session') {
        const s = JSON.parse(raw!) as J;
        const expected = s.initialFileContents.length + s.recentSnapshot.entries.length + (s.timeline?.operations.length ?? 0);
        expect(rows).toHaveLength(expected);
        expect(new Set(rows.map((r) => r.session_id))).toEqual(new Set(expected ? [s.sessionId] : []));
      } else if (name === 'extension-log') {
        const want = raw!.split('\n').flatMap((l, n) => (/\] (Logged in as |GitHub login failed)/.test(l) ? [n + 1] : []));
        expect(want.length).toBeGreaterThan(0);
        expect(rows.map((r) => r.source_line)).toEqual(want);
      } else if (name === 'state-vscdb') {
        expect(rows.length).toBeGreaterThan(0);
      } else throw new Error(`no accounting for ${name}`);
    });
  }

  it('gives the workspace state.vscdb its index (the session whose file is gone, marked), every input-history prompt and the view draft', async () => {
    const h = join(REAL, 'aholicg__Debian');
    const { rows } = await parse(h, '.config/Code/User/workspaceStorage/9db99ece2007200d4d280d06fe3e831e/state.vscdb');
    const expected: [string, string, string, string][] = [
      ['60b140d3', 'system', 'session_name', 'session name: Setting app background image with CSS'],
      ['60b140d3', 'system', 'session_metadata', 'session metadata: location=panel file=missing'],
      ['', 'user', '', 'I want the background image of the app to be https://img6.thuthuatphanmem.vn/'],
      ['', 'user', '', 'can you make the image be blurry?'],
      ['', 'user', '', "now I want the app's logo (the image showing when app is minimized to tray) to be"],
      ['', 'user', '', "isn't just changing the photo in assets enough?"],
      ['', 'user', '', 'I also want the background image of app to be an image in the assets folder'],
      ['', 'user', '', 'I want to add new feature: A "home" button to return to the inital page'],
      ['', 'user', '', '2'],
      ['60b140d3', 'system', '', 'unsent draft: 2'],
    ];
    expect(rows.map((r) => [r.session_id.slice(0, 8), r.turn_type, r.tag ?? '', r.text])).toEqual(expected.map(([a, b, c, d]) => [a, b, c, expect.stringMatching(new RegExp(`^${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))]));
    expect(new Set(rows.map((r) => r.project_path))).toEqual(new Set(['/home/trang/localnsv/mAIware']));
  });

  it('reads the flagged global state.vscdb for its chat keys only: the empty-window index, no secret', async () => {
    const h = join(REAL, 'aholicg__Debian');
    const { rows } = await parse(h, '.config/Code/User/globalStorage/state.vscdb');
    expect(rows.map((r) => [r.session_id, r.tag, r.text])).toEqual([
      ['175b4520-926d-4ce4-bde7-bf7c603a46a4', 'session_name', 'session name: New Chat'],
      ['175b4520-926d-4ce4-bde7-bf7c603a46a4', 'session_metadata', 'session metadata: location=panel empty=true'],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/REDACTED|secret:/);
  });
});
