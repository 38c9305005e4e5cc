import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../opencode/test-helpers/catalog-check.js';
import { buildDb, copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { goosePlugin } from './index.js';

const [db, , legacy, config, permissions] = goosePlugin.parsers;
const homes = tempHomes('goose-config');

describe('goose config.yaml and permission.yaml', () => {
  it('config.yaml: the approval mode, provider and model; every extension to the MCP inventory, secrets never in a row', async () => {
    const { rows, ctx } = await run(config, copyHome('goose-source', homes.make()), '.config/goose/config.yaml');
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission mode: GOOSE_MODE=smart_approve', 'permission_mode'],
      ['model setting: GOOSE_PROVIDER=anthropic', 'model_setting'],
      ['model setting: GOOSE_MODEL=claude-sonnet-4-5', 'model_setting'],
      ['mcp server configured: developer', 'mcp_setting'],
      ['mcp server configured: github', 'mcp_setting'],
      ['mcp server configured: tracker (disabled)', 'mcp_setting'],
    ]);
    expect(ctx.mcpServers.map((s) => [s.name, s.transport, s.command, s.url, s.env_keys, s.header_keys, s.disabled, s.secrets?.map((x) => x.where)])).toEqual([
      ['developer', 'builtin', undefined, undefined, undefined, undefined, undefined, undefined],
      ['github', 'stdio', 'npx', undefined, ['GITHUB_PERSONAL_ACCESS_TOKEN'], undefined, undefined, ['env:GITHUB_PERSONAL_ACCESS_TOKEN']],
      ['tracker', 'streamable_http', undefined, 'https://mcp.example.com/tracker', undefined, ['Authorization'], true, ['header:Authorization']],
    ]);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
    expect(config.readsSecretFile?.('.config/goose/config.yaml')).toBe(true);
  });

  it('permission.yaml: one permission setting per tool and level, for the user and smart_approve lists', async () => {
    const { rows } = await run(permissions, copyHome('goose-source', homes.make()), '.config/goose/permission.yaml');
    expect(rows.map((r) => r.text)).toEqual([
      'permission setting: user developer__shell=always_allow',
      'permission setting: user developer__text_editor=ask_before',
      'permission setting: user computercontroller__automation_script=never_allow',
      'permission setting: smart_approve load=ask_before',
    ]);
  });

  it('YAML that cannot be parsed, or an alias bomb, is one unreadable row that never quotes the file', async () => {
    const home = homes.make();
    writeFiles(home, { '.config/goose/config.yaml': 'GOOSE_MODE: [unclosed\nkey: sk-FAKE', '.config/goose/permission.yaml': `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `b${i}: &b${i} [${`*${i ? `b${i - 1}` : 'a'}, `.repeat(10).slice(0, -2)}]`).join('\n')}\n` });
    const bad = await run(config, home, '.config/goose/config.yaml');
    expect(bad.rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect(bad.rows[0].text).not.toContain('FAKE');
    expect((await run(permissions, home, '.config/goose/permission.yaml')).rows.map((r) => r.tag)).toEqual(['unreadable']);
  });
});

describe('goose hostile stores', () => {
  it('a database without the messages table, with content that is not JSON, and a legacy file of garbage', async () => {
    const home = homes.make();
    buildDb(home, '.local/share/goose/sessions/sessions.db', 'CREATE TABLE sessions (id TEXT, working_dir TEXT, created_at TEXT); CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER);', [
      ["INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s', 'user', 'not json', 1789376400)", []],
      ["INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s', 'user', '{\"type\":\"text\"}', 1789376400)", []],
    ]);
    const r = await run(db, home, '.local/share/goose/sessions/sessions.db');
    expect(r.rows.map((x) => [x.source_line, x.tag])).toEqual([
      [1, 'bad_line'],
      [2, 'bad_line'],
    ]);
    writeFiles(home, { '.local/share/goose/sessions/x.jsonl': '\u0000\u0001garbage\n[1,2]\n\n{"role":"user"}\n' });
    const l = await run(legacy, home, '.local/share/goose/sessions/x.jsonl');
    expect(l.rows.map((x) => [x.source_line, x.tag])).toEqual([
      [1, 'bad_line'],
      [2, 'bad_line'],
    ]);
    expect(l.ctx.unknowns).toEqual([{ kind: 'line without content role', line: 4 }]);
  });
});

describe('goose catalog', () => {
  it('collects the spec paths on Linux, macOS (XDG and the Block folder), Windows and GOOSE_PATH_ROOT; flags secrets; the parsers want each OS spelling', () => {
    const dbs = ['.local/share/goose/sessions/sessions.db', 'AppData/Roaming/Block/goose/data/sessions/sessions.db', 'Library/Application Support/Block/goose/data/sessions/sessions.db', '.goose-path-root/data/sessions/sessions.db'];
    for (const rel of dbs) expect(db.wants(rel), rel).toBe(true);
    for (const rel of ['AppData/Roaming/Block/goose/config/config.yaml', '.goose-path-root/config/permission.yaml']) expect(goosePlugin.parsers.some((p) => p.wants(rel)), rel).toBe(true);
    checkCatalog(goosePlugin, {
      collected: [...dbs, '.local/share/goose/sessions/sessions.db-wal', '.local/share/goose/sessions/a.jsonl', '.local/share/goose/backups/pre_migration_v4_to_v5.db', '.config/goose/permission.yaml', '.config/goose/.goosehints', '.local/state/goose/logs/cli/2026-09-14/x.log', 'AppData/Roaming/Goose/logs/main.log'],
      secrets: ['.config/goose/secrets.yaml', '.config/goose/config.yaml', 'AppData/Roaming/Block/goose/config/secrets.yaml', 'Library/Application Support/Block/goose/config/config.yaml', '.goose-path-root/config/secrets.yaml'],
      excluded: ['.agents/plugins/x/index.js'],
      project: ['.goosehints', '.goose/recipes/r.yaml', 'AGENTS.md'],
    });
  });
});
