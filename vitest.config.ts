import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * End-to-end files first. vitest orders files by their last duration when it has one (longest
 * first), else by size: on a clean clone (CI) small e2e files of a minute (compression,
 * analyze-jobs) started last and ran alone at the end while the other worker sat idle.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = (f: TestSpecification) => f.moduleId.includes('/src/e2e/');
    return [...sorted.filter(e2e), ...sorted.filter((f) => !e2e(f))];
  }
}

// Tests import other packages by name through their `exports`; the `aitrail-source` condition
// points those at src so tests never run against a stale dist. End-to-end tests run the built CLI.
export default defineConfig({
  resolve: { conditions: ['aitrail-source'] },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'fixtures/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single one on a 2-core machine, where
    // the end-to-end files then spend their time waiting on one CLI child process after another
    // (its start-up, its I/O, a writer it races) with a core idle. One worker per core.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: EndToEndFirst },
    // A cache folder for CLI outputs that end-to-end tests share (packages/cli/src/e2e/test-helpers/shared-run.ts).
    globalSetup: ['packages/cli/src/e2e/test-helpers/global-setup.ts'],
  },
});
