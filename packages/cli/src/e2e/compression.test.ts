import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { COMPRESSIONS } from '@aitrail/collector';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestOf, REPO, runCli, stackTraceLines, tempDir, unwrapOclif } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// Every --compression choice gives an ordinary zip that verify accepts, Python and unzip open,
// and that analyzes to the very timeline of the default one.

const HOMES = [join(REPO, 'fixtures/homes/seed-copilot'), join(REPO, 'fixtures/homes/seed-claude')];
const T = tempDir('compression');
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail collect --compression', () => {
  it.each(COMPRESSIONS)('%s: recorded in collection.json, verified, opened by unzip and Python, analyzed to the default timeline', async (choice) => {
    const zip = join(T, `${choice}.zip`);
    const c = await runCli(['collect', ...HOMES.flatMap((h) => ['--home', h]), '--compression', choice, '--out', zip]);
    expect(c.code, c.stderr).toBe(0);
    const info = JSON.parse((await (await manifestOf(zip)).read('collection.json')).toString('utf8'));
    expect(info.compression).toMatchObject({ choice, level: { fast: 1, standard: 6, best: 9, store: 0 }[choice] });
    expect(info.compression.stored_members + info.compression.deflated_members).toBe((await manifestOf(zip)).members.length - 1);
    if (choice === 'store') expect(info.compression.deflated_members).toBe(0);
    else expect(info.compression.deflated_members).toBeGreaterThan(0);

    const v = await runCli(['verify', zip]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(execFileSync('unzip', ['-tq', zip], { encoding: 'utf8' })).toContain('No errors detected');
    expect(execFileSync('python3', ['-c', 'import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).testzip())', zip], { encoding: 'utf8' }).trim()).toBe('None');

    const out = join(T, `out-${choice}`);
    const a = await runCli(['analyze', zip, '--out', out]);
    expect(a.code, a.stderr).toBe(0);
    expect(stackTraceLines(a.stderr)).toEqual([]);
    const base = await sharedAnalyze((await sharedCollect(HOMES)).zip);
    expect(base.run.code, base.run.stderr).toBe(0);
    expect(readFileSync(join(out, 'timeline.csv'), 'utf8')).toBe(readFileSync(join(base.out, 'timeline.csv'), 'utf8'));
  }, 180_000);

  it('refuses an unknown choice with exit 2 and the choices', async () => {
    const r = await runCli(['collect', '--home', HOMES[0], '--compression', 'zstd', '--out', join(T, 'x.zip')]);
    expect(r.code).toBe(2);
    expect(unwrapOclif(r.stderr)).toMatch(/fast, standard, best, store/);
  });
});
