import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { duplicateLine } from '../outputs.js';
import { loadDuplicates } from './duplicates-table.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-dup-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TABLE = `CREATE TABLE duplicates (id INTEGER PRIMARY KEY, agent TEXT, session_id TEXT, source_file TEXT, source_line INTEGER,
  kept_source_file TEXT, kept_source_line INTEGER, dropped TEXT, kept TEXT, paired_with TEXT)`;

/** A timeline.jsonl line of a row (the writer's column order) with this text. */
function rowLine(text: string, file: string, line: number | null): string {
  return JSON.stringify({ timestamp_utc: '2026-10-01T09:00:01.000Z', host: 'vm', user: 'alice', agent: 'copilot-cli', session_id: 's-1', project_path: '/p', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text, source_file: file, source_line: line, tag: '' });
}

/** The duplicates table loaded from `text`, reading lines of `whole` bytes or more member by member. */
async function table(text: string, whole?: number): Promise<unknown[]> {
  const file = join(dir, `dup-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, text);
  const db = new Database(':memory:');
  db.exec(TABLE);
  await loadDuplicates(db, file, whole);
  const rows = db.prepare('SELECT * FROM duplicates ORDER BY id').all();
  db.close();
  return rows;
}

// Texts that trip a careless scanner: quotes, backslashes, braces and the writer's own keys inside
// strings, escapes, characters of every UTF-8 length, a lone surrogate (escaped by JSON.stringify).
const TEXTS = ['plain', 'a "quoted" \\ back\\slash \\"', '},"kept":{"x":1},"paired_with":[', 'line\nbreak\ttab\u0001', 'naïve 日志 🎉', 'lone \ud800 surrogate', `${'long prompt '.repeat(2000)}end`];

function fileOf(): string {
  const parts: string[] = [];
  for (const [i, t] of TEXTS.entries()) {
    const kept = i % 3 === 2 ? undefined : rowLine(t, 'a/events.jsonl', i + 1);
    const paired = i % 2 === 0 ? rowLine(`${t} paired`, 'c/events.jsonl', null) : undefined;
    parts.push(...duplicateLine(rowLine(t, 'b/events.jsonl', i + 1), kept, paired));
  }
  return parts.join('');
}

describe('the duplicates table from duplicates.jsonl', () => {
  it('is the same whether a line is read whole or member by member', async () => {
    const text = fileOf();
    const whole = await table(text);
    expect(whole).toHaveLength(TEXTS.length);
    expect(whole[0]).toMatchObject({ agent: 'copilot-cli', session_id: 's-1', source_file: 'b/events.jsonl', source_line: 1, kept_source_file: 'a/events.jsonl', kept_source_line: 1 });
    expect(whole[2]).toMatchObject({ kept: null, kept_source_file: null, kept_source_line: null });
    expect(whole[1]).toMatchObject({ paired_with: null });
    // Every line taken the long way (1 byte is "long"), then a bound inside the rows.
    expect(await table(text, 1)).toEqual(whole);
    expect(await table(text, 300)).toEqual(whole);
  });

  it('takes a last line without its newline, skips blank lines, and a missing file is no rows', async () => {
    const text = fileOf();
    const whole = await table(text);
    const cut = `\n${text.replace(/\n$/, '')}`;
    expect(await table(cut)).toEqual(whole);
    expect(await table(cut, 1)).toEqual(whole);
    const db = new Database(':memory:');
    db.exec(TABLE);
    await loadDuplicates(db, join(dir, 'absent.jsonl'));
    expect(db.prepare('SELECT count(*) AS n FROM duplicates').get()).toEqual({ n: 0 });
    db.close();
  });
});
