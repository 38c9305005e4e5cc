import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { copilotSettingsParser } from './settings-parser.js';
import { parseText } from './test-helpers/harness.js';

const REL = '.copilot/settings.json';
const MTIME = '2026-10-01T08:00:00.000Z';
const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus/real/XEFF09__dotfiles/.copilot/settings.json', import.meta.url));
const parse = (body: string) => parseText(copilotSettingsParser, REL, body, { mtime: MTIME });

describe('settings.json parser', () => {
  it('reads the seed file with its comment: one allowedUrls row at the file mtime', async () => {
    const { rows } = await parse('{\n  // user settings\n  "allowedUrls": ["https://registry.example.org"]\n}\n');
    expect(rows).toEqual([
      {
        timestamp_utc: MTIME,
        session_id: '',
        project_path: '',
        git_branch: '',
        model: '',
        tool_name: '',
        tool_use_id: '',
        turn_type: 'system',
        text: 'permission setting: allowedUrls=https://registry.example.org',
        source_line: 1,
        tag: 'permission_setting',
      },
    ]);
  });

  it('gives deniedUrls rows too, block comments and trailing commas allowed', async () => {
    const { rows } = await parse('/* header */ {"allowedUrls": ["a.example", "b.example",], "deniedUrls": ["evil.example"], "model": "x",}');
    expect(rows.map((r) => [r.text, r.source_line])).toEqual([
      ['permission setting: allowedUrls=a.example', 1],
      ['permission setting: allowedUrls=b.example', 2],
      ['permission setting: deniedUrls=evil.example', 1],
    ]);
  });

  it('gives one unreadable row for invalid JSON or a non-object, a bad-line row for a list that is not one', async () => {
    expect((await parse('{"allowedUrls": [')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found invalid JSON') })]);
    expect((await parse('[1]')).rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found an array') })]);
    expect((await parse('{"deniedUrls": "x"}')).rows).toEqual([expect.objectContaining({ tag: 'bad_line', text: 'parser: unparseable line (expected deniedUrls to be an array, found a string): (value not printed: settings.json may hold credentials)' })]);
  });

  it('a file cut mid-write gives the complete URLs before the cut (never the cut one), with a warning that prints no value', async () => {
    const { rows, warnings } = await parse('{\n  // user settings\n  "allowedUrls": ["https://a.example", "https://b.exa');
    expect(rows.map((r) => r.text)).toEqual(['permission setting: allowedUrls=https://a.example']);
    expect(warnings).toEqual([{ message: 'expected JSON with comments, found invalid JSON (UnexpectedEndOfString) at line 3: the complete entries before it were read', line: 3 }]);
  });

  it('opts in to the flagged settings.json and never prints anything but the URL lists', async () => {
    expect(copilotSettingsParser.readsSecretFile?.(REL)).toBe(true);
    expect(copilotSettingsParser.readsSecretFile?.('.copilot/config.json')).toBe(false);
    const marker = 'hunter2-proxy-password';
    const body = JSON.stringify({ sandbox: { userPolicy: { network: { proxy: { password: marker } } } }, allowedUrls: ['https://a.example', { password: marker }], deniedUrls: { password: marker } });
    const { rows } = await parse(body);
    expect(rows.map((r) => r.text)).toEqual([
      'permission setting: allowedUrls=https://a.example',
      'permission setting: allowedUrls=(an object with keys ["password"], not printed)',
      'parser: unparseable line (expected deniedUrls to be an array, found an object with keys ["password"]): (value not printed: settings.json may hold credentials)',
    ]);
    expect(JSON.stringify(rows)).not.toContain(marker);
  });

  it.skipIf(!existsSync(CORPUS))('reads the real settings (XEFF09__dotfiles), which grant no URL: no rows', async () => {
    const { rows, warnings } = await parse(readFileSync(CORPUS, 'utf8'));
    expect(rows).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
