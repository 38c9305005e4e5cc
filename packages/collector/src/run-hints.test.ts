import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogs } from './catalog.js';
import { collect } from './collect.js';

// A jsonl hint (Copilot CLI's events.jsonl) is scanned in the collector's own read of the file:
// its project roots are those of the bytes archived, and the file is not read a second time.

const base = mkdtempSync(join(tmpdir(), 'aitrail-runhints-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const copilot = loadCatalogs().filter((c) => c.agent === 'copilot-cli');

const start = (cwd: string) => JSON.stringify({ id: 'a', parentId: null, timestamp: '2026-10-01T00:00:00Z', type: 'session.start', data: { context: { cwd } } });
const filler = JSON.stringify({ id: 'b', parentId: 'a', timestamp: '2026-10-01T00:00:01Z', type: 'assistant.message', data: { content: 'x'.repeat(500) } });

describe('project hints scanned during the read', () => {
  it('takes the roots from the bytes read, not from the file as it is afterwards', async () => {
    const home = join(base, 'sean');
    const log = join(home, '.copilot', 'session-state', 's1', 'events.jsonl');
    mkdirSync(join(log, '..'), { recursive: true });
    const [read, later] = [join(base, 'repo-read'), join(base, 'repo-later')];
    // Past one read chunk, with the start line last, so the scan spans the chunks of the read.
    writeFileSync(log, `${Array.from({ length: 3000 }, () => filler).join('\n')}\n${start(read)}\n`);
    const s = await collect(
      { homes: [home], out: join(base, 'c.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: copilot, platform: 'linux', currentHome: '/x' },
      {
        // Right after the read: a re-read would now find the other root.
        row: (r) => {
          if (r.rel.endsWith('events.jsonl')) writeFileSync(log, `${start(later)}\n`);
        },
      },
    );
    const roots = s.projects.map((p) => p.root);
    expect(roots).toContain(read);
    expect(roots).not.toContain(later);
  });
});

// A json, yaml, toml or xml hint (Copilot CLI's workspace.yaml) is parsed from a copy of the bytes
// read too, when they are within its bound; past it, the file is read again at the end as before.
describe('document hints parsed from the collector read', () => {
  async function collectYaml(name: string, body: (root: string) => string, after: string) {
    const home = join(base, name);
    const file = join(home, '.copilot', 'session-state', 's1', 'workspace.yaml');
    mkdirSync(join(file, '..'), { recursive: true });
    const [read, later] = [join(base, `${name}-read`), join(base, `${name}-later`)];
    writeFileSync(file, body(read));
    return {
      read,
      later,
      summary: await collect(
        { homes: [home], out: join(base, `${name}.zip`), full: false, secrets: 'collect', dryRun: false, catalogs: copilot, platform: 'linux', currentHome: '/x' },
        {
          row: (r) => {
            if (r.rel.endsWith('workspace.yaml')) writeFileSync(file, `cwd: ${after === 'later' ? later : read}\n`);
          },
        },
      ),
    };
  }

  it('takes the roots from the bytes read, not from the file as it is afterwards', async () => {
    const { read, later, summary } = await collectYaml('yaml', (root) => `id: s1\ncwd: ${root}\n`, 'later');
    const roots = summary.projects.map((p) => p.root);
    expect(roots).toContain(read);
    expect(roots).not.toContain(later);
  });

  it('reads a file past its bound again, as before', async () => {
    // 1 MiB and more of comment: over the yaml bound, so the file read afterwards (now small) is the one parsed.
    const { later, summary } = await collectYaml('big-yaml', (root) => `cwd: ${root}\n${'#'.repeat(1024 * 1024)}\n`, 'later');
    expect(summary.projects.map((p) => p.root)).toContain(later);
  });
});

describe('a document hint read in chunks', () => {
  it('decodes a character cut between two chunks and keeps the BOM handling of a whole-file read', async () => {
    const home = join(base, 'chunks');
    const file = join(home, '.copilot', 'sidebar-sessions-state', 'a.json');
    mkdirSync(join(file, '..'), { recursive: true });
    const root = join(base, 'répo-chunks');
    // The BOM, then spaces that put the root's 2-byte é across the 1 MiB chunk boundary (bytes 1048575-1048576).
    const at = Buffer.byteLength(`\uFEFF{"cwd":"${root.slice(0, root.indexOf('é'))}`);
    writeFileSync(file, `\uFEFF{${' '.repeat(1024 * 1024 - 1 - at)}"cwd":${JSON.stringify(root)}}`);
    expect(readFileSync(file).subarray(1024 * 1024 - 1, 1024 * 1024 + 1).toString()).toBe('é');
    const s = await collect({ homes: [home], out: join(base, 'chunks.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: copilot, platform: 'linux', currentHome: '/x' }, {});
    expect(s.projects.map((p) => p.root)).toContain(root);
  });
});
