// `npm test`: set up, then lint, type-check and run every test; closes with `N passed, N failed`.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, ensureInstalled, pnpm } from './setup.mjs';

if (ensureInstalled() !== 0 || build() !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
let passed = 0;
let failed = 0;
for (const [name, args] of [
  ['lint', ['exec', 'biome', 'check', '.']],
  ['typecheck', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']],
]) {
  const code = pnpm(args);
  console.log(`check ${name}: ${code === 0 ? 'ok' : 'FAILED'}`);
  if (code === 0) passed += 1;
  else failed += 1;
}
const dir = mkdtempSync(join(tmpdir(), 'aitrail-vitest-'));
const report = join(dir, 'report.json');
const extra = process.argv.slice(2);
const code = pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A suite that fails to load has no tests to count; it still fails the run.
  const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  failed += brokenSuites;
} catch {
  failed += 1;
  console.error('vitest wrote no report: it did not run');
}
rmSync(dir, { recursive: true, force: true });
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
