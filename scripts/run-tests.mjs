// `npm test`: set up, then lint, type-check and run every test; closes with `N passed, N failed, N skipped`.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, ensureInstalled, pnpm } from './setup.mjs';
import { closingLine, countsOf } from './test-summary.mjs';

if (ensureInstalled() !== 0 || build() !== 0) {
  console.log(closingLine({ passed: 0, failed: 1, skipped: 0 }));
  process.exit(1);
}
let passed = 0;
let failed = 0;
let skipped = 0;
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
  // A suite that fails to load has no tests to count; it still fails the run.
  const c = countsOf(r);
  passed += c.passed;
  failed += c.failed;
  skipped += c.skipped;
} catch {
  failed += 1;
  console.error('vitest wrote no report: it did not run');
}
rmSync(dir, { recursive: true, force: true });
if (code !== 0 && failed === 0) failed = 1;
console.log(closingLine({ passed, failed, skipped }));
process.exit(failed === 0 ? 0 : 1);
