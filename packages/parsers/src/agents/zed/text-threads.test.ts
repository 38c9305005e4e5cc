import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { zedPlugin } from './index.js';

// Text threads of Zed's Assistant (`*.zed.json`): fixtures/homes/zed-spec's two files (a legacy
// conversations/ one and a newer text_threads/ one), then the older versions and damaged files.

const text = zedPlugin.parsers[1];
const homes = tempHomes('zed-text');
const MTIME = new Date('2026-09-30T12:00:00Z');
const at = (home: string, rel: string) => {
  utimesSync(join(home, rel), MTIME, MTIME);
  return rel;
};
const line = (r: { session_id: string; source_line: number | null; timestamp_utc: string; turn_type: string; text: string; tag?: string }) => [r.session_id, r.source_line, r.timestamp_utc, r.turn_type, r.text, r.tag ?? ''];
const T = MTIME.toISOString();

describe('text threads (*.zed.json)', () => {
  it('one row per message, the buffer cut at each start, the file time on every row; a failed message says so', async () => {
    const home = copyHome('zed-spec', homes.make());
    const a = await run(text, home, at(home, '.local/share/zed/conversations/Explain the cache - 1.zed.json'));
    const b = await run(text, home, at(home, '.local/state/zed/text_threads/Plan the release - 1.zed.json'));
    expect([...a.rows, ...b.rows].map(line)).toEqual([
      ['c0nte7t0-0000-4000-8000-000000000001', null, T, 'system', 'text thread: Explain the cache version=0.4.0', 'session_start'],
      ['c0nte7t0-0000-4000-8000-000000000001', null, T, 'system', 'session name: Explain the cache', 'session_name'],
      ['c0nte7t0-0000-4000-8000-000000000001', 1, T, 'user', 'Explain the cache layer', 'time_file'],
      ['c0nte7t0-0000-4000-8000-000000000001', 2, T, 'assistant', '\nThe cache keeps the last 100 responses.', 'time_file'],
      ['c0nte7t0-0000-4000-8000-000000000002', null, T, 'system', 'text thread: Plan the release version=0.4.0', 'session_start'],
      ['c0nte7t0-0000-4000-8000-000000000002', null, T, 'system', 'session name: Plan the release', 'session_name'],
      ['c0nte7t0-0000-4000-8000-000000000002', 1, T, 'user', 'Plan the release\nList what ships in 2.0.', 'time_file'],
      ['c0nte7t0-0000-4000-8000-000000000002', 2, T, 'assistant', 'The cache rewrite and the new CLI.\n[error: rate limited]', 'time_file'],
    ]);
  });

  it('a 0.3.0 file (roles in message_metadata by id), starts counted in UTF-8 bytes, messages out of order', async () => {
    const home = homes.make();
    const body = 'Résumé this\nIt is short.\n';
    const second = Buffer.byteLength('Résumé this\n');
    const rel = '.config/zed/conversations/Résumé - 2.zed.json';
    writeFiles(home, { [rel]: JSON.stringify({ zed: 'context', version: '0.3.0', text: body, messages: [{ id: 5, start: second }, { id: 0, start: 0 }], message_metadata: { 0: { role: 'user', status: 'Done' }, 5: { role: 'assistant', status: 'Pending' } }, summary: '' }) });
    const { rows } = await run(text, home, at(home, rel));
    expect(rows.map((r) => [r.session_id, r.source_line, r.turn_type, r.text])).toEqual([
      ['text-thread:Résumé - 2.zed.json', null, 'system', 'text thread: Résumé version=0.3.0'],
      ['text-thread:Résumé - 2.zed.json', null, 'system', 'session name: Résumé'],
      ['text-thread:Résumé - 2.zed.json', 2, 'user', 'Résumé this'],
      ['text-thread:Résumé - 2.zed.json', 1, 'assistant', 'It is short.\n[pending]'],
    ]);
  });

  it('damage: not an object is one unreadable row; no text is a bad_line row; an unknown role is counted and kept', async () => {
    const home = homes.make();
    writeFiles(home, {
      'a/conversations/x.zed.json': '[1, 2]',
      '.local/share/zed/conversations/No text - 1.zed.json': JSON.stringify({ zed: 'context', version: '0.4.0', summary: 'No text', messages: [] }),
      '.local/share/zed/conversations/Odd - 1.zed.json': JSON.stringify({ zed: 'other', version: '0.4.0', summary: 'Odd', text: 'hello', messages: [{ start: 0, metadata: { role: 'tool', status: 'Done' } }] }),
    });
    expect((await run(text, home, 'a/conversations/x.zed.json')).rows.map((r) => [r.text, r.tag])).toEqual([['parser: unreadable file (expected a Zed text thread (a JSON object with "text" and "messages"), found an array)', 'unreadable']]);
    expect((await run(text, home, '.local/share/zed/conversations/No text - 1.zed.json')).rows.map((r) => r.text).at(-1)).toBe('parser: text thread No text has no text (found null)');
    const odd = await run(text, home, '.local/share/zed/conversations/Odd - 1.zed.json');
    expect(odd.rows.at(-1)?.text).toBe('tool message: hello');
    expect(odd.ctx.unknowns.map((u) => u.kind)).toEqual(['role tool']);
    expect(odd.ctx.warnings.map((w) => w.message)).toEqual(['.local/share/zed/conversations/Odd - 1.zed.json: expected "zed": "context", found "other"']);
  });

  it('wants text threads in the data, config and state folders of each OS', () => {
    for (const rel of ['.local/share/zed/conversations/a - 1.zed.json', '.config/zed/conversations/a - 1.zed.json', '.local/state/zed/text_threads/a - 1.zed.json', 'Library/Application Support/Zed/conversations/a - 1.zed.json', 'AppData/Local/Zed/conversations/a - 1.zed.json', '.var/app/dev.zed.Zed/data/zed/text_threads/a - 1.zed.json']) expect(text.wants(rel), rel).toBe(true);
    for (const rel of ['.local/share/zed/conversations/a.json', '.local/share/zed/prompts/a.zed.json', 'src/conversations/a.zed.json']) expect(text.wants(rel), rel).toBe(false);
  });
});
