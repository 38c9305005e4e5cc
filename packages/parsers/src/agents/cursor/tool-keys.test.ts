import { describe, expect, it } from 'vitest';
import { toolDedupKey, toolUseRow } from './tool-keys.js';

// The database's rawArgs (the spec's fixture, jverre/agents-for-cursor) against the transcript's
// arguments for the same call (the spec's fixture, the real anuragabhay transcripts' names).
describe('toolDedupKey', () => {
  it("gives the spec fixture's search_replace and its transcript StrReplace one key", () => {
    const db = toolDedupKey('search_replace', { file_path: '/srv/proj/date.test.js', old_string: '2025', new_string: '2026' });
    const tr = toolDedupKey('StrReplace', { path: '/srv/proj/date.test.js', old_string: '2025', new_string: '2026' });
    expect(db).toBeDefined();
    expect(tr).toBe(db);
    // Another replacement in the same file is another call.
    expect(toolDedupKey('StrReplace', { path: '/srv/proj/date.test.js', old_string: '2024', new_string: '2026' })).not.toBe(db);
  });

  it('pairs each evidenced family across the two namings, a .txt string number equal to a JSON number', () => {
    const pairs: [string, unknown, string, unknown][] = [
      ['read_file', { target_file: '/a/b.ts', limit: 100 }, 'Read', { path: '/a/b.ts', limit: '100' }],
      ['list_dir', { target_directory: '/a' }, 'LS', { target_directory: '/a' }],
      ['list_dir', { target_directory: '/a' }, 'list_dir', { target_directory: '/a' }],
      ['grep', { pattern: 'venv', path: '/a', output_mode: 'files_with_matches', head_limit: 20 }, 'Grep', { pattern: 'venv', path: '/a', glob: '*.json' }],
      ['glob_file_search', { target_directory: '/a', glob_pattern: '**/*' }, 'Glob', { target_directory: '/a', glob_pattern: '**/*' }],
    ];
    for (const [dbName, dbArgs, trName, trArgs] of pairs) {
      const k = toolDedupKey(dbName, dbArgs);
      expect(k, dbName).toBeDefined();
      expect(toolDedupKey(trName, trArgs), trName).toBe(k);
    }
  });

  it('keeps reads of one file at different places apart, and different families apart', () => {
    const whole = toolDedupKey('Read', { path: '/a/b.ts' });
    expect(toolDedupKey('read_file', { target_file: '/a/b.ts', offset: 368 })).not.toBe(whole);
    expect(toolDedupKey('LS', { target_directory: '/a' })).not.toBe(toolDedupKey('Glob', { target_directory: '/a', glob_pattern: '' }));
  });

  it('gives no key to a tool without evidence for both namings, to a call missing a key argument, to args that are not an object', () => {
    expect(toolDedupKey('Write', { path: '/a', contents: 'x' })).toBeUndefined();
    expect(toolDedupKey('edit_file_v2', { target_file: '/a', instructions: 'x' })).toBeUndefined();
    expect(toolDedupKey('codebase_search', { query: 'x' })).toBeUndefined();
    expect(toolDedupKey('mcp_agent-automation_check_my_pending_tasks', { role: 'lead' })).toBeUndefined();
    expect(toolDedupKey('StrReplace', { path: '/a', old_string: 'x' })).toBeUndefined();
    expect(toolDedupKey('Read', { path: ['/a'] })).toBeUndefined();
    expect(toolDedupKey('Read', '/a')).toBeUndefined();
    // Names are matched exactly: a case variant is another tool.
    expect(toolDedupKey('strreplace', { path: '/a', old_string: 'x', new_string: 'y' })).toBeUndefined();
  });
});

describe('toolUseRow', () => {
  it('keeps the text and tool name as the store wrote them, adding the key only to mapped calls', () => {
    const mapped = toolUseRow('StrReplace', { path: '/a', old_string: 'x', new_string: 'y' }, { session_id: 's', source_line: 3 });
    expect([mapped.turn_type, mapped.text, mapped.tool_name, mapped.session_id, mapped.source_line]).toEqual(['tool_use', '{"new_string":"y","old_string":"x","path":"/a"}', 'StrReplace', 's', 3]);
    expect(mapped.dedup_key).toBe(toolDedupKey('search_replace', { file_path: '/a', old_string: 'x', new_string: 'y' }));
    const unmapped = toolUseRow('Write', { path: '/a', contents: 'x' }, {});
    expect('dedup_key' in unmapped).toBe(false);
    // Terminal calls keep matching on their text (the command), as before.
    expect('dedup_key' in toolUseRow('Shell', { command: 'npm test' }, {})).toBe(false);
  });
});
