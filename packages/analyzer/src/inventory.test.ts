import type { ManifestRow } from '@aitrail/collector';
import { describe, expect, it } from 'vitest';
import { credentialTotals, InventoryBuilder, tempFolderUid } from './inventory.js';

const row = (user: string, agent: string, rel: string): ManifestRow => ({ user, agent, rel, archive_path: `homes/${user}/${rel}`, home: `/home/${user}`, scope: 'home', status: 'collected', secret: false }) as ManifestRow;

describe('InventoryBuilder credential findings', () => {
  it('files each member under its home and agent, in file then line order, with totals and the count not listed', () => {
    const inv = new InventoryBuilder();
    inv.addCredentialFindings('h1', {
      scanned: [
        { row: row('sean', 'copilot-cli', '.copilot/logs/p.log'), findings: [{ line: 7, kind: 'github_fine_grained_pat', preview: 'gith…' }], total: 1 },
        { row: row('sean', 'copilot-cli', '.copilot/a/events.jsonl'), findings: [{ line: 9, kind: 'github_token', preview: 'ghp_…' }, { line: 2, kind: 'aws_access_key_id', preview: 'AKIA…' }], total: 5 },
        { row: row('sean', 'claude-code', '.claude/x.jsonl'), findings: [], total: 0 },
        { row: row('ana', 'copilot-cli', '.copilot/b.log'), findings: [{ line: null, kind: 'slack_token', preview: 'xoxb…' }], total: 1 },
      ],
      total: 7,
      kept: 4,
    });
    const homes = inv.finish([]);
    const get = (user: string, agent: string) => homes.find((h) => h.user === user)!.agents.find((a) => a.agent === agent)!;
    const sean = get('sean', 'copilot-cli');
    // Within a file the scanner's order stands (it is line order); files sort by archive path.
    expect(sean.credential_findings).toEqual([
      { file: 'homes/sean/.copilot/a/events.jsonl', line: 9, kind: 'github_token', preview: 'ghp_…' },
      { file: 'homes/sean/.copilot/a/events.jsonl', line: 2, kind: 'aws_access_key_id', preview: 'AKIA…' },
      { file: 'homes/sean/.copilot/logs/p.log', line: 7, kind: 'github_fine_grained_pat', preview: 'gith…' },
    ]);
    expect(sean).toMatchObject({ credential_scanned_files: 2, credential_findings_total: 6, credential_findings_truncated: 3 });
    expect(get('sean', 'claude-code')).toMatchObject({ credential_scanned_files: 1, credential_findings: [], credential_findings_total: 0, credential_findings_truncated: 0 });
    expect(get('ana', 'copilot-cli').credential_findings).toEqual([{ file: 'homes/ana/.copilot/b.log', line: null, kind: 'slack_token', preview: 'xoxb…' }]);
    expect(credentialTotals(homes)).toEqual({ credential_scanned_files: 4, credential_findings: 7 });
  });

  it('starts every agent entry with empty findings', () => {
    const inv = new InventoryBuilder();
    inv.agent('h', 'u', 'a');
    expect(inv.finish([])[0].agents[0]).toMatchObject({ credential_scanned_files: 0, credential_findings: [], credential_findings_total: 0, credential_findings_truncated: 0 });
  });
});

describe('InventoryBuilder orphan SQLite sidecars', () => {
  it('warns about a -wal or -shm collected without its database, and not about one collected with it', () => {
    const inv = new InventoryBuilder();
    inv.addManifest(
      'h',
      [
        row('sean', 'copilot-cli', '.copilot/session-store.db-wal'),
        row('sean', 'copilot-cli', '.copilot/session-store.db-shm'),
        row('ana', 'copilot-cli', '.copilot/session-store.db'),
        row('ana', 'copilot-cli', '.copilot/session-store.db-wal'),
      ],
      () => undefined,
    );
    const homes = inv.finish([]);
    const warnings = (user: string) => homes.find((h) => h.user === user)!.agents[0].parse_warnings;
    expect(warnings('sean')).toEqual([
      { file: 'homes/sean/.copilot/session-store.db-wal', line: null, parser: 'analyzer', message: 'a SQLite -wal without its database (.copilot/session-store.db was not collected): the rows it holds cannot be read; collect the database with it' },
      { file: 'homes/sean/.copilot/session-store.db-shm', line: null, parser: 'analyzer', message: 'a SQLite -shm without its database (.copilot/session-store.db was not collected): the rows it holds cannot be read; collect the database with it' },
    ]);
    expect(warnings('ana')).toEqual([]);
  });
});

describe('InventoryBuilder system scope', () => {
  it('lists system rows as the host system scope, with the uid a temp folder names, never as a nameless home', () => {
    const inv = new InventoryBuilder();
    const sys = (path: string): ManifestRow => ({ user: '', home: '', agent: 'claude-code', scope: 'system', rel: path.slice(1), source_path: path, archive_path: `system${path}`, status: 'collected', secret: false, size: 3, bytes_read: 3 }) as ManifestRow;
    inv.addManifest('h', [row('sean', 'claude-code', '.claude/history.jsonl'), sys('/tmp/claude-1000/-srv-proj/s1/scratch.txt'), sys('/private/tmp/claude-501/x'), sys('/etc/claude-code/managed-settings.json')], () => undefined);
    const homes = inv.finish([]);
    expect(homes.map((h) => [h.user, h.home])).toEqual([['sean', '/home/sean']]);
    expect(inv.system()).toEqual([{ host: 'h', agents: [expect.objectContaining({ agent: 'claude-code', artifacts: 3, temp_folder_uids: [501, 1000] })] }]);
  });

  it('reads a uid only from a per-user temp folder name', () => {
    expect(['/tmp/claude-1000/a', '/private/tmp/claude-501', '/var/tmp/x-7/y', '/tmp/claude-abc/a', '/tmp/a/claude-1000/b', '/etc/claude-1000/x'].map(tempFolderUid)).toEqual([1000, 501, 7, undefined, undefined, undefined]);
  });
});
