// Child process of the dedup benchmark: node bench/workers/dedup.mjs <dedup|sort> <rows> <shared>
// Builds the same records either way (seeded), then times only the operation:
//   dedup: dedupRows(records) from @aitrail/analyzer
//   sort:  the baseline, Array.prototype.sort of the same records by timestamp
// `shared` rows carry one text ("continue"); a tenth of all rows are secondary copies, some
// undated, so the clusters of the shared key are as crowded as DESIGN warns they can be.
// Prints one JSON line: {mode, rows, shared, dropped, ms, from}.
import { loadDedup } from '../lib/packages.mjs';
import { Rng } from '../lib/prng.mjs';

const [mode, nArg, sharedArg] = process.argv.slice(2);
const n = Number(nArg);
const shared = Number(sharedArg);
const rng = new Rng(42);
const BASE = Date.UTC(2026, 5, 1);
const records = new Array(n);
for (let i = 0; i < n; i++) {
  const secondary = rng.chance(0.1);
  const undated = secondary && rng.chance(0.05);
  // Shared-text rows are spread over the set, not bunched at its start.
  const key = rng.next() < shared / n ? 'k:continue' : `k:${i}`;
  records[i] = {
    ord: i,
    key,
    session: secondary && rng.chance(0.3) ? '' : `s${rng.int(0, 999)}`,
    time: undated ? null : BASE + Math.floor(rng.next() * 90 * 86_400_000),
    file: secondary ? `store-${rng.int(0, 9)}` : `events-${rng.int(0, 999)}`,
    secondary,
    toleranceSeconds: secondary ? 3600 : 0,
  };
}

let from = 'Array.prototype.sort';
let dropped = 0;
let ms;
if (mode === 'sort') {
  const t0 = performance.now();
  const sorted = records.slice().sort((a, b) => (a.time ?? Number.POSITIVE_INFINITY) - (b.time ?? Number.POSITIVE_INFINITY) || a.ord - b.ord);
  ms = performance.now() - t0;
  dropped = sorted.length - n;
} else {
  const d = await loadDedup();
  if (!d) {
    console.log(JSON.stringify({ mode, unavailable: 'dedupRows is not in packages/analyzer/dist yet' }));
    process.exit(0);
  }
  from = d.from;
  const t0 = performance.now();
  dropped = d.dedupRows(records).size;
  ms = performance.now() - t0;
}
console.log(JSON.stringify({ mode, rows: n, shared: records.filter((r) => r.key === 'k:continue').length, dropped, ms, from }));
