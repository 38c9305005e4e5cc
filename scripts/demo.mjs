// `npm run demo`: set up, then scan the bundled sample home and print the summary.
import { build, ensureInstalled, run } from './setup.mjs';

if (ensureInstalled() !== 0 || build() !== 0) process.exit(1);
const out = process.argv[2] ?? 'out/demo';
process.exit(run('node', ['packages/cli/bin/run.js', 'scan', '--home', 'fixtures/homes/seed-copilot', '--out', out]));
