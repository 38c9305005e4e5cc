#!/usr/bin/env node
// Entry point of the `aitrail` bin: oclif reads package.json and loads the explicit command map.
process.env.OCLIF_SKIP_NEW_VERSION_CHECK ??= 'true';
// The analysis child starts loading while oclif loads and starts (analysis-host.ts
// preforkAnalysis). oclif is imported after the fork: as a static import it ran first, and its
// 0.1-0.15 s of loading delayed the child by as much.
const args = process.argv.slice(2);
if (args[0] === 'analyze' && !args.some((a) => a === '--help' || a === '-h')) (await import('../dist/analysis-host.js')).preforkAnalysis();
const { execute } = await import('@oclif/core');
await execute({ dir: import.meta.url });
