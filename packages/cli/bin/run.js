#!/usr/bin/env node
// Entry point of the `aitrail` bin: oclif reads package.json and loads the explicit command map.
import { execute } from '@oclif/core';

process.env.OCLIF_SKIP_NEW_VERSION_CHECK ??= 'true';
// The analysis child starts loading while oclif starts (analysis-host.ts preforkAnalysis).
const args = process.argv.slice(2);
if (args[0] === 'analyze' && !args.some((a) => a === '--help' || a === '-h')) (await import('../dist/analysis-host.js')).preforkAnalysis();
await execute({ dir: import.meta.url });
