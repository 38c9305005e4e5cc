import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkIntegrity, credentialNotice, type IntegrityResult } from './integrity.js';
import { type CollectionSource, openDirectorySource } from './source.js';
import { type FakeFile, makeCollectionDir } from './test-helpers/make-collection.js';

// Fake tokens are assembled at run time so no credential-shaped literal sits in the repository.
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const GHP = `ghp_${rep('FAKE0', 36)}`;
const PAT = `github_pat_${rep('FAKE0_', 82)}`;
const AWS = `AKIA${rep('FAKE0', 16)}`;

const root = mkdtempSync(join(tmpdir(), 'aitrail-integrity-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A directory source over `files` that counts how often each member is opened. */
async function source(files: FakeFile[]): Promise<{ src: CollectionSource; opened: Map<string, number> }> {
  const dir = join(root, `case-${n++}`);
  makeCollectionDir(dir, files);
  const inner = await openDirectorySource(dir);
  const opened = new Map<string, number>();
  const src: CollectionSource = {
    ...inner,
    openMember(name) {
      opened.set(name, (opened.get(name) ?? 0) + 1);
      return inner.openMember(name);
    },
  };
  return { src, opened };
}

const byFile = (r: IntegrityResult) => Object.fromEntries(r.credentials.scanned.map((m) => [m.row.archive_path, { total: m.total, findings: m.findings }]));

describe('checkIntegrity feeds the credential scanner', () => {
  it('scans the chunks it hashes: each member opened once, secret files hashed and never scanned', async () => {
    const prompt = JSON.stringify({ type: 'user.message', data: { content: `use ${GHP}`, transformedContent: `<t/>\nuse ${GHP}` } });
    const { src, opened } = await source([
      { agent: 'copilot-cli', rel: '.copilot/session-state/s/events.jsonl', content: `{"type":"session.start"}\n${prompt}\n` },
      { agent: 'copilot-cli', rel: '.copilot/logs/process-1.log', content: `2026-10-01T09:00:00.000Z [DEBUG] token ${PAT}\r\n` },
      { agent: 'copilot-cli', rel: '.copilot/mcp-config.json', content: JSON.stringify({ mcpServers: { github: { env: { GITHUB_PERSONAL_ACCESS_TOKEN: GHP } } } }), secret: true },
      { agent: 'copilot-cli', rel: '.copilot/notes.md', content: 'nothing here\n' },
    ]);
    const r = await checkIntegrity(src);
    expect(r.ok).toBe(true);
    expect(r.checked).toBe(4);
    expect([...opened.values()]).toEqual([1, 1, 1, 1]);
    expect(byFile(r)).toEqual({
      'homes/sean/.copilot/session-state/s/events.jsonl': { total: 1, findings: [{ line: 2, kind: 'github_token', preview: 'ghp_…' }] },
      'homes/sean/.copilot/logs/process-1.log': { total: 1, findings: [{ line: 1, kind: 'github_fine_grained_pat', preview: 'gith…' }] },
      'homes/sean/.copilot/notes.md': { total: 0, findings: [] },
    });
    expect(r.credentials).toMatchObject({ total: 2, kept: 2 });
    expect(JSON.stringify(byFile(r))).not.toContain(GHP.slice(4, 12));
  });

  it('finds a token cut between two read chunks of a large member', async () => {
    // createReadStream reads 64 KiB at a time: put the token across that edge, on line 3.
    const head = `a\nb\n${'x '.repeat((65_536 - 10) / 2)}`;
    const { src } = await source([{ agent: 'a', rel: '.a/big.log', content: `${head}${AWS} end\nlast ${GHP}\n` }]);
    const r = await checkIntegrity(src);
    expect(r.credentials.scanned[0].findings).toEqual([
      { line: 3, kind: 'aws_access_key_id', preview: 'AKIA…' },
      { line: 4, kind: 'github_token', preview: 'ghp_…' },
    ]);
  });

  it('keeps at most maxPerFile per member and maxTotal per input, counting every finding', async () => {
    const many = (k: number) => Array.from({ length: k }, (_, i) => `${i} ${AWS}`).join('\n');
    const { src } = await source([
      { agent: 'a', rel: '.a/1.log', content: many(150) },
      { agent: 'a', rel: '.a/2.log', content: many(30) },
      { agent: 'a', rel: '.a/3.log', content: many(5) },
    ]);
    const r = await checkIntegrity(src, undefined, { credentials: { maxPerFile: 100, maxTotal: 120 } });
    expect(r.credentials.scanned.map((m) => [m.total, m.findings.length])).toEqual([
      [150, 100],
      [30, 20],
      [5, 0],
    ]);
    expect(r.credentials).toMatchObject({ total: 185, kept: 120 });
    expect(r.credentials.scanned[0].findings.map((f) => f.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const defaults = await checkIntegrity(src);
    expect(defaults.credentials.scanned.map((m) => m.findings.length)).toEqual([100, 30, 5]);
  });

  it('drops the findings of a member that fails the check, and scans nothing when told not to', async () => {
    const { src } = await source([
      { agent: 'a', rel: '.a/tampered.log', content: `x ${GHP}\n`, manifest: { sha256: '0'.repeat(64) } },
      { agent: 'a', rel: '.a/short.log', content: `x ${GHP}\n`, manifest: { size: 3, bytes_read: 3 } },
      { agent: 'a', rel: '.a/ok.log', content: `y ${GHP}\n` },
    ]);
    const r = await checkIntegrity(src);
    expect(r.mismatched.map((p) => p.archive_path)).toEqual(['homes/sean/.a/tampered.log', 'homes/sean/.a/short.log']);
    expect(Object.keys(byFile(r))).toEqual(['homes/sean/.a/ok.log']);
    const off = await checkIntegrity(src, undefined, { credentials: false });
    expect(off.credentials).toEqual({ scanned: [], total: 0, kept: 0 });
    expect(off.checked).toBe(2);
  });

  it('gives a binary member (a SQLite page) findings without a line number', async () => {
    const page = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(100, 0x0a), Buffer.from(`prompt ${GHP}`)]);
    const { src } = await source([{ agent: 'a', rel: '.a/store.db-wal', content: page }]);
    const r = await checkIntegrity(src);
    expect(r.credentials.scanned[0].findings).toEqual([{ line: null, kind: 'github_token', preview: 'ghp_…' }]);
  });

  it('says on stderr how many and which kinds, never a value or a preview', async () => {
    const { src } = await source([
      { agent: 'a', rel: '.a/1.log', content: `${GHP}\n${PAT}\n` },
      { agent: 'a', rel: '.a/2.log', content: `${AWS}\n` },
      { agent: 'a', rel: '.a/3.log', content: 'clean\n' },
    ]);
    const notice = credentialNotice((await checkIntegrity(src)).credentials);
    expect(notice).toBe(
      '3 credential-like strings in 2 collected files that are not secret files (aws_access_key_id, github_fine_grained_pat, github_token); listed by file, line, kind and a 4-character preview in inventory.json credential_findings; values are never printed',
    );
    expect(notice).not.toMatch(/ghp_|gith…|AKIA/);
    expect(credentialNotice({ scanned: [], total: 0, kept: 0 })).toBeNull();
  });
});
