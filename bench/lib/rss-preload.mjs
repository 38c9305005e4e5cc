// Loaded into every node process the bench starts (NODE_OPTIONS --import): on exit, append this
// process's peak resident set (bytes; the one figure /proc polling can miss) and its CPU time
// (ms, all threads) and its minor page faults (a count the machine's drifting speed does not
// move) to $BENCH_RSS_FILE, one JSON line per process.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by the bench for its children only; no turbo task reads it
const file = process.env.BENCH_RSS_FILE;
// Worker threads load this preload too, but resourceUsage() is the whole process's: report once.
if (file && isMainThread) {
  process.on('exit', () => {
    try {
      const u = process.resourceUsage();
      appendFileSync(file, `${JSON.stringify({ rss: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, faults: u.minorPageFault })}\n`);
    } catch {
      // Never change the measured program's exit because of the bench.
    }
  });
}
