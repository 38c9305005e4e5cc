import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Claude Code keeps per-session scratchpads in /tmp/claude-<uid>/ (system scope). A run that
// names its homes must not take the analyst's own, whatever this machine has run: a real one is
// planted here for the test (under a uid no real user has) and removed after.

const HOME = join(REPO, 'fixtures/homes/seed-claude');
let uid = 0;
let planted = '';
let T = '';

beforeAll(() => {
  T = tempDir('system-scope');
  for (let n = 0; !planted; n += 1) {
    uid = 2_000_000_000 + ((process.pid * 7919 + n) % 100_000_000);
    try {
      mkdirSync(`/tmp/claude-${uid}`);
      planted = `/tmp/claude-${uid}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 50) throw e;
    }
  }
  mkdirSync(join(planted, '-srv-proj', 'session-1'), { recursive: true });
  writeFileSync(join(planted, '-srv-proj', 'session-1', 'scratch.txt'), 'scratch notes of a session\n');
});
afterAll(() => {
  if (planted) rmSync(planted, { recursive: true, force: true });
  rmSync(T, { recursive: true, force: true });
});

describe('the host system paths and --home', () => {
  it('collect --home takes the named home only, and says the system paths were left', async () => {
    const r = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(r.code, r.stderr).toBe(0);
    const { rows } = await manifestOf(join(T, 'c.zip'));
    // No system row, and nothing from a /tmp/claude-<uid> folder (the repository itself may live under /tmp).
    expect(rows.filter((x) => x.scope === 'system' || /^\/tmp\/claude-/.test(x.source_path))).toEqual([]);
    expect(new Set(rows.map((x) => x.user))).toEqual(new Set(['seed-claude']));
    // The list grows with every catalog that declares system paths; the two wave-1 agents must be in it, sorted.
    const m = /system paths of ([a-z0-9, -]+) not collected: --home names the homes to collect; add --system/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const named = m![1]!.split(', ');
    expect(named).toEqual([...named].sort());
    expect(named).toEqual(expect.arrayContaining(['claude-code', 'copilot-cli']));
  });

  it('scan --home --system takes them, as the host system scope with the uid the temp folder names', async () => {
    const out = join(T, 'scan');
    const r = await runCli(['scan', '--home', HOME, '--system', '--agent', 'claude-code', '--out', out]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    const { rows } = await manifestOf(join(out, 'collection.zip'));
    expect(rows.find((x) => x.source_path === join(planted, '-srv-proj/session-1/scratch.txt'))).toMatchObject({ scope: 'system', user: '', status: 'collected', archive_path: `system${planted}/-srv-proj/session-1/scratch.txt` });
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as { homes: { user: string; home: string }[]; system: { host: string; agents: { agent: string; temp_folder_uids: number[] }[] }[] };
    expect(inv.homes.map((h) => [h.user, h.home])).toEqual([['seed-claude', HOME]]);
    expect(inv.system).toHaveLength(1);
    expect(inv.system[0].agents.find((a) => a.agent === 'claude-code')?.temp_folder_uids).toContain(uid);
  });
});
