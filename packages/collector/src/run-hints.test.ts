import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
