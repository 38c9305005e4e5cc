#!/usr/bin/env node
// The top of a V8 CPU profile (node --cpu-prof), for docs/performance.md:
//   node bench/profile-top.mjs FILE.cpuprofile [N]
// Self time per function (name, file:line), the largest N, with the share of the sampled time;
// "(idle)", "(garbage collector)" and "(program)" are V8's own buckets.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [file, n = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.mjs FILE.cpuprofile [N]');
  process.exit(2);
}
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const self = new Map();
// Sample i covers timeDeltas[i + 1] microseconds (the interval until the next sample).
for (let i = 0; i < p.samples.length; i++) {
  const node = byId.get(p.samples[i]);
  const cf = node.callFrame;
  const where = cf.url ? `${basename(cf.url.replace(/^file:\/\//, ''))}:${cf.lineNumber + 1}` : '';
  const key = `${cf.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
  self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(n));
console.log(`${(total / 1e6).toFixed(2)} s sampled (${basename(file)})`);
for (const [k, us] of rows) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
