// `npm run demo`: set up, then scan the bundled sample homes (the Copilot CLI and Claude Code
// seed fixtures) and print the summary.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, ensureInstalled, root, run } from './setup.mjs';

if (ensureInstalled() !== 0 || build() !== 0) process.exit(1);
const out = resolve(root, process.argv[2] ?? 'out/demo');
// The demo owns this folder; aitrail itself refuses to overwrite a collection, so clear it first.
rmSync(out, { recursive: true, force: true });
process.exit(run('node', ['packages/cli/bin/run.js', 'scan', '--home', 'fixtures/homes/seed-copilot', '--home', 'fixtures/homes/seed-claude', '--out', out]));
