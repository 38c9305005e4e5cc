// The five benchmarks. Each runs its measured command and its baselines interleaved
// (A B A B ...), the same number of times, and reports medians with min and max; ratios are
// taken per interleaved pair, then summarized, so drift on the machine hits both sides alike.
import * as C from './commands.mjs';
import { summary } from './measure.mjs';

const log = (s) => process.stderr.write(`  ${s}\n`);

/** Run `measured` and each baseline `runs` times, interleaved. */
async function interleaved(runs, measured, baselines) {
  const out = { measured: [], baselines: Object.fromEntries(Object.keys(baselines).map((k) => [k, []])) };
  for (let i = 0; i < runs; i++) {
    const m = await measured();
    if (m.unavailable) return { unavailable: m.unavailable };
    out.measured.push(m);
    for (const [k, fn] of Object.entries(baselines)) {
      const b = await fn();
      if (b.unavailable) out.baselines[k] = { unavailable: b.unavailable };
      else if (Array.isArray(out.baselines[k])) out.baselines[k].push(b);
    }
    log(`run ${i + 1}/${runs} done`);
  }
  return out;
}

const stat = (list, f) => summary(list.map(f));
/** Per-pair ratio a/b of a field, summarized. */
const pairRatio = (as, bs, fa, fb) => summary(as.map((a, i) => fa(a) / fb(bs[i])));

function side(list) {
  if (!Array.isArray(list)) return list;
  const cpu = list[0].cpuMs !== undefined ? { cpu: stat(list, (r) => r.cpuMs) } : {};
  const faults = list[0].faults ? { faults: stat(list, (r) => r.faults) } : {};
  const archive = list[0].archiveBytes !== undefined ? { archiveBytes: list[0].archiveBytes } : {};
  return { ms: stat(list, (r) => r.ms), ...cpu, rss: stat(list, (r) => r.rss), bytes: list[0].bytes, rows: list[0].rows, label: list[0].label, ...archive, ...faults };
}

export async function collectSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runCollect(corpus), { zip: () => C.runZip(corpus), sha: () => C.runSha(corpus) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { collect: side(r.measured), zip: side(r.baselines.zip), sha: side(r.baselines.sha) };
  // Time ratios: lower is better; the target is against zip -r -6 alone.
  if (Array.isArray(r.baselines.zip)) {
    res.ratioZip = pairRatio(r.measured, r.baselines.zip, (a) => a.ms, (b) => b.ms);
    res.ratioZipCpu = pairRatio(r.measured, r.baselines.zip, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  // Collection at hashing speed (issue 23): collect against sha256sum alone, the floor of any
  // collector that hashes what it reads.
  if (Array.isArray(r.baselines.sha)) {
    res.ratioSha = pairRatio(r.measured, r.baselines.sha, (a) => a.ms, (b) => b.ms);
    res.ratioShaCpu = pairRatio(r.measured, r.baselines.sha, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  if (Array.isArray(r.baselines.zip) && Array.isArray(r.baselines.sha)) {
    // zip then sha256sum, as separate passes: the work collect does in one read.
    const both = r.baselines.zip.map((z, i) => ({ ms: z.ms + r.baselines.sha[i].ms, cpuMs: z.cpuMs + r.baselines.sha[i].cpuMs }));
    res.ratioZipSha = pairRatio(r.measured, both, (a) => a.ms, (b) => b.ms);
    res.ratioZipShaCpu = pairRatio(r.measured, both, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  return res;
}

/**
 * The project walk (issue 23: time on a live target): collect of a home whose project holds
 * tens of thousands of files no catalog wants, against find listing the same tree, and against
 * collect of an empty home (the start-up every collect pays).
 */
export async function walkSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runWalkCollect(corpus), { find: () => C.runFind(corpus), empty: () => C.runWalkCollect(corpus, true) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { collect: side(r.measured), find: side(r.baselines.find), empty: side(r.baselines.empty), files: corpus.files };
  if (Array.isArray(r.baselines.find)) res.ratioFind = pairRatio(r.measured, r.baselines.find, (a) => a.ms, (b) => b.ms);
  if (Array.isArray(r.baselines.empty)) res.walkMs = summary(r.measured.map((a, i) => a.ms - r.baselines.empty[i].ms));
  return res;
}

/**
 * Many small files, where the cost is per file: collect against sha256sum of the same files
 * (issue 23), then analyze of that archive against the bare JSON.parse loop over them (issue 12).
 */
export async function smallSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runSmallCollect(corpus), { sha: () => C.runSmallSha(corpus) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { collect: side(r.measured), sha: side(r.baselines.sha), files: corpus.files };
  if (Array.isArray(r.baselines.sha)) {
    res.ratioSha = pairRatio(r.measured, r.baselines.sha, (a) => a.ms, (b) => b.ms);
    res.ratioShaCpu = pairRatio(r.measured, r.baselines.sha, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  const archive = r.measured.at(-1).archive;
  const a = await interleaved(runs, () => C.runAnalyzeInputs([archive], corpus.label), { bare: () => C.runParse(corpus, 'bare') });
  if (a.unavailable) return { ...res, analyzeUnavailable: a.unavailable };
  res.analyze = side(a.measured);
  res.bare = side(a.baselines.bare);
  if (Array.isArray(a.baselines.bare)) {
    res.ratioBare = pairRatio(a.baselines.bare, a.measured, (b) => b.ms, (m) => m.ms);
    res.ratioBareCpu = pairRatio(a.baselines.bare, a.measured, (b) => b.cpuMs, (m) => m.cpuMs);
  }
  return res;
}

export async function parseSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runParse(corpus, 'parser'), { bare: () => C.runParse(corpus, 'bare') });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { parse: side(r.measured), bare: side(r.baselines.bare) };
  res.parse.mbps = summary(r.measured.map((x) => x.bytes / 1048576 / (x.ms / 1000)));
  if (Array.isArray(r.baselines.bare)) {
    res.bare.mbps = summary(r.baselines.bare.map((x) => x.bytes / 1048576 / (x.ms / 1000)));
    // Throughput ratio over the same bytes: baseline time / parse time (higher is better).
    res.ratio = pairRatio(r.baselines.bare, r.measured, (b) => b.ms, (a) => a.ms);
    res.ratioCpu = pairRatio(r.baselines.bare, r.measured, (b) => b.cpuMs, (a) => a.cpuMs);
  }
  return res;
}

export async function analyzeSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runAnalyze(corpus), { bare: () => C.runParse(corpus, 'bare'), parse: () => C.runParse(corpus, 'parser') });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { analyze: side(r.measured), bare: side(r.baselines.bare), parse: side(r.baselines.parse), input: r.measured[0].input };
  res.analyze.rowsPerSec = summary(r.measured.map((x) => (x.rows ?? 0) / (x.ms / 1000)));
  // Throughput ratios over the same corpus: baseline time / analyze time (higher is better).
  for (const [k, list] of [
    ['Bare', r.baselines.bare],
    ['Parse', r.baselines.parse],
  ]) {
    if (!Array.isArray(list)) continue;
    res[`ratio${k}`] = pairRatio(list, r.measured, (b) => b.ms, (a) => a.ms);
    res[`ratio${k}Cpu`] = pairRatio(list, r.measured, (b) => b.cpuMs, (a) => a.cpuMs);
  }
  return res;
}

/**
 * The row-count extreme: one event log of `lines` lines of `{}`, each a bad-line row, against
 * the bare JSON.parse loop over the same file; with the peak of the analysis's temporary files.
 */
export async function rowsSection(corpus, runs) {
  const tmp = `${C.OUT}/tmp-rows`;
  const r = await interleaved(runs, () => C.runAnalyze(corpus, { tmp }), { bare: () => C.runParse(corpus, 'bare') });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { analyze: side(r.measured), bare: side(r.baselines.bare), lines: corpus.lines };
  res.analyze.tmpPeak = summary(r.measured.map((x) => x.tmpPeak));
  res.analyze.outBytes = r.measured[0].outBytes;
  if (Array.isArray(r.baselines.bare)) res.ratio = pairRatio(r.baselines.bare, r.measured, (b) => b.ms, (a) => a.ms);
  return res;
}

/**
 * A fleet in one analyze: `fleet` archives (one machine each) against one archive of the same
 * total size; the ratio is fleet time / one-archive time (lower is better).
 */
export async function fleetSection(fleet, one, runs) {
  const archives = [];
  for (const c of fleet) {
    const a = await C.archiveFor(c);
    if (typeof a !== 'string') return { unavailable: a.unavailable };
    archives.push(a);
  }
  const oneArchive = await C.archiveFor(one);
  if (typeof oneArchive !== 'string') return { unavailable: oneArchive.unavailable };
  const r = await interleaved(runs, () => C.runAnalyzeInputs(archives, 'fleet'), { one: () => C.runAnalyzeInputs([oneArchive], one.label) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { fleet: side(r.measured), one: side(r.baselines.one), archives: archives.length, bytes: fleet.reduce((n, c) => n + c.bytes, 0), oneBytes: one.bytes };
  if (Array.isArray(r.baselines.one)) {
    res.ratio = pairRatio(r.measured, r.baselines.one, (a) => a.ms, (b) => b.ms);
    res.ratioCpu = pairRatio(r.measured, r.baselines.one, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  return res;
}

/**
 * What the report outputs (timeline.sqlite, timeline.timesketch.jsonl, report.html) add to
 * analyze: the default run against `--no-reports`, interleaved; times and output bytes.
 */
export async function reportsSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runAnalyze(corpus, { args: ['--no-findings'] }), { bare: () => C.runAnalyze(corpus, { args: ['--no-findings', '--no-reports'] }) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { reports: side(r.measured), bare: side(r.baselines.bare), outputs: r.measured[0].outputs };
  if (Array.isArray(r.baselines.bare)) {
    // Time with reports / time without (lower is better; 1.0 would be free).
    res.ratio = pairRatio(r.measured, r.baselines.bare, (a) => a.ms, (b) => b.ms);
    res.ratioCpu = pairRatio(r.measured, r.baselines.bare, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  return res;
}

/** The findings' cost: analyze (built-in rules) against analyze --no-findings of the same archive. */
export async function findingsSection(corpus, runs) {
  const r = await interleaved(runs, () => C.runAnalyze(corpus, { args: ['--no-reports'] }), { without: () => C.runAnalyze(corpus, { args: ['--no-reports', '--no-findings'] }) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { with: side(r.measured), without: side(r.baselines.without), findings: r.measured[0].findings };
  if (Array.isArray(r.baselines.without)) {
    res.ratio = pairRatio(r.measured, r.baselines.without, (a) => a.ms, (b) => b.ms);
    res.ratioCpu = pairRatio(r.measured, r.baselines.without, (a) => a.cpuMs, (b) => b.cpuMs);
  }
  return res;
}

/** The honest 10 GiB zip bomb through analyze: time and peak RSS (no baseline: the bound is the target). */
export async function hostileSection(runs) {
  const r = await interleaved(runs, () => C.runBombHonest(), {});
  if (r.unavailable) return { unavailable: r.unavailable };
  return { bomb: side(r.measured), reported: r.measured.every((m) => m.reported) };
}

export async function dedupSection(runs, rows = 1_000_000, shared = 100_000) {
  const r = await interleaved(runs, () => C.runDedup('dedup', rows, shared), { sort: () => C.runDedup('sort', rows, shared) });
  if (r.unavailable) return { unavailable: r.unavailable };
  const res = { dedup: side(r.measured), sort: side(r.baselines.sort), rows, shared: r.measured[0].shared, dropped: r.measured[0].dropped, from: r.measured[0].from };
  if (Array.isArray(r.baselines.sort)) res.ratio = pairRatio(r.measured, r.baselines.sort, (a) => a.ms, (b) => b.ms);
  return res;
}

/**
 * Time and peak RSS of collect, parse and analyze at 1x, 4x and 16x. Points already measured
 * by the sections above (the 16x corpus is theirs) are reused rather than run again.
 */
export async function scalingSection(corpora, runs, known) {
  const cmds = {
    collect: (c) => C.runCollect(c),
    parse: (c) => C.runParse(c, 'parser'),
    // The baseline's own curve: how much of any growth is the runtime's heap sizing, not the code.
    bare: (c) => C.runParse(c, 'bare'),
    analyze: (c) => C.runAnalyze(c),
  };
  const out = {};
  for (const [name, fn] of Object.entries(cmds)) {
    out[name] = [];
    for (const c of corpora) {
      const reuse = known[name]?.[c.label];
      if (reuse) {
        out[name].push({ size: c.label, bytes: c.bytes, ms: reuse.ms, cpu: reuse.cpu, rss: reuse.rss });
        continue;
      }
      const list = [];
      let unavailable;
      for (let i = 0; i < runs && !unavailable; i++) {
        const m = await fn(c);
        if (m.unavailable) unavailable = m.unavailable;
        else list.push(m);
      }
      if (unavailable) {
        out[name] = { unavailable };
        break;
      }
      log(`${name} at ${c.label}: done`);
      out[name].push({ size: c.label, bytes: c.bytes, ms: stat(list, (x) => x.ms), cpu: stat(list, (x) => x.cpuMs), rss: stat(list, (x) => x.rss) });
    }
  }
  return out;
}
