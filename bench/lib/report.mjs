// The targets, judged plainly, and the printed table.
import { fmtMiB, fmtMs, fmtRange, MiB } from './measure.mjs';

const fx = (x) => `${x.toFixed(2)}x`;
const GiB = 1024 ** 3;

function verdict(name, target, section, ratio, ok, note, cpuRatio) {
  if (!section) return { name, target, met: null, value: 'not run (--only)' };
  if (section.unavailable) return { name, target, met: null, value: `not available yet: ${section.unavailable}` };
  if (!ratio) return { name, target, met: null, value: 'baseline not available' };
  const cpu = cpuRatio ? `; by CPU time ${fx(cpuRatio.median)}, ${ok(cpuRatio.median) ? 'met' : 'missed'}` : '';
  return { name, target, met: ok(ratio.median), value: `${fx(ratio.median)} (${fx(ratio.min)}–${fx(ratio.max)})${cpu}`, ...(note ? { note } : {}) };
}

/** Each target with its measured value and met: true | false | null (could not be measured). */
export function evaluateTargets(r, main) {
  const t = [];
  t.push(verdict('collect time vs zip -r -6', '≤ 1.5x', r.collect, r.collect?.ratioZip, (x) => x <= 1.5, undefined, r.collect?.ratioZipCpu));
  t.push(verdict('collect time vs sha256sum of the same files', '≤ 2x', r.collect, r.collect?.ratioSha, (x) => x <= 2, undefined, r.collect?.ratioShaCpu));
  const parseNote = r.parse?.parse?.label?.startsWith('readJsonLines') ? 'the events parser was not registered: readJsonLines alone was measured' : undefined;
  t.push(verdict('parse throughput vs bare JSON.parse loop', '≥ 0.8x', r.parse, r.parse?.ratio, (x) => x >= 0.8, parseNote, r.parse?.ratioCpu));
  t.push(verdict('analyze end to end throughput vs bare JSON.parse loop', '≥ 0.33x (aim 0.5x)', r.analyze, r.analyze?.ratioBare, (x) => x >= 0.33, r.analyze?.ratioParse ? `vs the events parser alone ${fx(r.analyze.ratioParse.median)}` : undefined, r.analyze?.ratioBareCpu));
  t.push(verdict('analyze time with findings vs --no-findings', '≤ 1.10x', r.findings, r.findings?.ratio, (x) => x <= 1.1, undefined, r.findings?.ratioCpu));
  t.push(verdict('dedup 1M rows (100k one text) vs sort', '≤ 2x', r.dedup, r.dedup?.ratio, (x) => x <= 2));
  const h = r.hostile;
  if (!h) t.push({ name: 'honest 10 GiB zip bomb through analyze', target: 'reported, peak RSS < 512 MiB', met: null, value: 'not run (--only)' });
  else if (h.unavailable) t.push({ name: 'honest 10 GiB zip bomb through analyze', target: 'reported, peak RSS < 512 MiB', met: null, value: `not available yet: ${h.unavailable}` });
  else t.push({ name: 'honest 10 GiB zip bomb through analyze', target: 'reported, peak RSS < 512 MiB', met: h.reported && h.bomb.rss.median < 512 * MiB, value: `${h.reported ? 'reported' : 'NOT reported'}, ${fmtMiB(h.bomb.rss.median)} in ${fmtMs(h.bomb.ms.median)}` });
  const sc = r.scaling;
  const bare = sc?.bare;
  const bareNote = Array.isArray(bare) ? `the bare JSON.parse loop over the same files: ${fmtMiB(bare[0].rss.median)} → ${fmtMiB(bare.at(-1).rss.median)}` : undefined;
  for (const name of ['collect', 'parse', 'analyze']) {
    const target = `peak RSS of ${name} flat from 1x to 16x`;
    const pts = sc?.[name];
    if (!sc) t.push({ name: target, target: 'within 20%', met: null, value: 'not run (--only)' });
    else if (!Array.isArray(pts)) t.push({ name: target, target: 'within 20%', met: null, value: `not available yet: ${pts?.unavailable}` });
    else {
      const growth = pts.at(-1).rss.median / pts[0].rss.median - 1;
      t.push({ name: target, target: 'within 20%', met: growth <= 0.2, value: `${fmtMiB(pts[0].rss.median)} → ${fmtMiB(pts.at(-1).rss.median)} (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%)`, ...(name === 'parse' && bareNote ? { note: bareNote } : {}) });
      // Linear: 16x the input costs at most 16x the time (a quarter more allowed for noise).
      const x = pts.at(-1).bytes / pts[0].bytes;
      const tg = pts.at(-1).ms.median / pts[0].ms.median;
      const cg = pts[0].cpu && pts.at(-1).cpu ? pts.at(-1).cpu.median / pts[0].cpu.median : null;
      t.push({ name: `time of ${name} from 1x to 16x`, target: `linear (≤ ${(x * 1.25).toFixed(0)}x for ${x.toFixed(1)}x the bytes)`, met: tg <= x * 1.25, value: `${fx(tg)}${cg ? `; by CPU time ${fx(cg)}, ${cg <= x * 1.25 ? 'met' : 'missed'}` : ''}` });
    }
  }
  const big = main && main.bytes >= GiB;
  const at = big ? `${(main.bytes / GiB).toFixed(0)} GiB` : '2 GiB';
  for (const [name, side] of [
    ['collect', r.collect?.collect],
    ['parse', r.parse?.parse],
    ['analyze', r.analyze?.analyze],
  ]) {
    const target = `peak RSS of ${name} at ${at}`;
    if (!big) t.push({ name: target, target: '< 512 MiB', met: null, value: 'not measured at this size (pnpm bench --size 2g)' });
    else if (!side || side.unavailable) t.push({ name: target, target: '< 512 MiB', met: null, value: 'not available' });
    else t.push({ name: target, target: '< 512 MiB', met: side.rss.median < 512 * MiB, value: fmtMiB(side.rss.median) });
  }
  const rows = r.rows;
  if (!rows || rows.unavailable) t.push({ name: 'ten million one-line rows', target: 'minutes, bounded memory and temp space', met: null, value: rows ? `not available: ${rows.unavailable}` : 'not run (--only)' });
  else {
    const a = rows.analyze;
    t.push({ name: `${rows.lines} rows of \`{}\`: time`, target: '≤ 5 min', met: a.ms.median <= 300_000, value: `${fmtMs(a.ms.median)} (${fx(rows.ratio?.median ?? Number.NaN)} the bare loop's throughput)` });
    t.push({ name: `${rows.lines} rows of \`{}\`: peak RSS`, target: '< 512 MiB', met: a.rss.median < 512 * MiB, value: fmtMiB(a.rss.median) });
    t.push({ name: `${rows.lines} rows of \`{}\`: peak temporary files`, target: '≤ the timeline outputs', met: a.tmpPeak.max <= a.outBytes, value: `${fmtMiB(a.tmpPeak.max)} for ${fmtMiB(a.outBytes)} of timeline.csv + timeline.jsonl` });
  }
  const f = r.fleet;
  if (!f || f.unavailable) t.push({ name: 'fleet of 50 archives vs one archive of the same size', target: '≤ 1.5x', met: null, value: f ? `not available: ${f.unavailable}` : 'not run (--only)' });
  else t.push(verdict(`fleet of ${f.archives} archives vs one archive of the same size`, '≤ 1.5x', f, f.ratio, (x) => x <= 1.5, undefined, f.ratioCpu));
  return t;
}

function row(cells, widths) {
  return cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const r of rows) console.log(row(r, widths).trimEnd());
}

function sideRow(name, s, extra = '') {
  if (!s) return [name, '-', '-', '-', extra];
  if (s.unavailable) return [name, 'not available yet', '-', '-', s.unavailable.slice(0, 80)];
  return [name, fmtRange(s.ms, fmtMs), s.cpu ? fmtMs(s.cpu.median) : '-', fmtRange(s.rss, fmtMiB), extra];
}

export function printReport(rep) {
  const m = rep.machine;
  console.log(`\naitrail bench — ${m.date}`);
  console.log(`machine: ${m.cpu}, ${m.cores} cores, ${(m.ramBytes / GiB).toFixed(0)} GiB RAM, node ${m.node}, ${m.os}${m.zip ? `, ${m.zip}` : ', zip absent'}`);
  for (const c of rep.corpora) console.log(`corpus ${c.label}: ${(c.bytes / MiB).toFixed(1)} MiB (${(c.eventsBytes / MiB).toFixed(1)} MiB events.jsonl), ${c.sessions} sessions, ${c.events} events`);
  console.log(`runs: ${rep.options.runs} each, interleaved; figures are median (min–max); load average ${rep.load.before.map((x) => x.toFixed(1)).join(' ')} before, ${rep.load.after.map((x) => x.toFixed(1)).join(' ')} after\n`);
  const r = rep.results;
  const rows = [['command', 'wall time', 'CPU time', 'peak RSS', 'notes']];
  if (r.collect) {
    const size = (s) => (s?.archiveBytes ? `archive ${fmtMiB(s.archiveBytes)}; ` : '');
    rows.push(sideRow('collect', r.collect.unavailable ? r.collect : r.collect.collect, r.collect.unavailable ? '' : size(r.collect.collect).replace(/; $/, '')));
    if (!r.collect.unavailable) {
      rows.push(sideRow('  zip -r -6', r.collect.zip, r.collect.ratioZip ? `${size(r.collect.zip)}collect/zip ${fx(r.collect.ratioZip.median)} (CPU ${fx(r.collect.ratioZipCpu.median)})` : ''));
      const sha = r.collect.ratioSha ? `collect/sha256sum ${fx(r.collect.ratioSha.median)} (CPU ${fx(r.collect.ratioShaCpu.median)}); ` : '';
      rows.push(sideRow('  sha256sum every file', r.collect.sha, r.collect.ratioZipSha ? `${sha}collect/(zip + sha256sum) ${fx(r.collect.ratioZipSha.median)} (CPU ${fx(r.collect.ratioZipShaCpu.median)})` : ''));
    }
  }
  if (r.walk) {
    const w = r.walk;
    rows.push(sideRow(`collect, project of ${w.files ?? '?'} files`, w.unavailable ? w : w.collect, w.walkMs ? `the walk ${fmtMs(w.walkMs.median)} past an empty home's collect` : ''));
    if (w.find) rows.push(sideRow('  find over the project', w.find, w.ratioFind ? `collect/find ${fx(w.ratioFind.median)}` : ''));
    if (w.empty) rows.push(sideRow('  collect, empty home', w.empty, ''));
  }
  if (r.small) {
    const x = r.small;
    rows.push(sideRow(`collect, ${x.files ?? '?'} small files`, x.unavailable ? x : x.collect, x.collect ? `${fmtMiB(x.collect.bytes)} of files; archive ${fmtMiB(x.collect.archiveBytes ?? 0)}` : ''));
    if (x.sha) rows.push(sideRow('  sha256sum every file', x.sha, x.ratioSha ? `collect/sha256sum ${fx(x.ratioSha.median)} (CPU ${fx(x.ratioShaCpu.median)})` : ''));
    if (x.analyze) rows.push(sideRow(`analyze, ${x.files ?? '?'} small files`, x.analyze, `${x.analyze.rows ?? '?'} rows`));
    if (x.bare) rows.push(sideRow('  bare JSON.parse loop', x.bare, x.ratioBare ? `analyze/bare throughput ${fx(x.ratioBare.median)} (CPU ${fx(x.ratioBareCpu.median)})` : ''));
  }
  if (r.parse) {
    const p = r.parse;
    rows.push(sideRow('parse events.jsonl', p.unavailable ? p : p.parse, p.parse ? `${p.parse.label}; ${p.parse.mbps.median.toFixed(0)} MiB/s, ${p.parse.rows} rows` : ''));
    if (p.bare) rows.push(sideRow('  bare JSON.parse loop', p.bare, p.bare.mbps ? `${p.bare.mbps.median.toFixed(0)} MiB/s; parse/bare throughput ${fx(p.ratio.median)} (CPU ${fx(p.ratioCpu.median)})` : ''));
  }
  if (r.analyze) {
    const a = r.analyze;
    rows.push(sideRow('analyze end to end', a.unavailable ? a : a.analyze, a.analyze ? `${a.input}; ${a.analyze.rows ?? '?'} rows, ${Math.round(a.analyze.rowsPerSec.median)} rows/s${a.analyze.faults ? `, ${Math.round(a.analyze.faults.median / 1000)}k page faults` : ''}` : ''));
    if (a.bare) rows.push(sideRow('  bare JSON.parse loop', a.bare, a.ratioBare ? `analyze/bare throughput ${fx(a.ratioBare.median)} (CPU ${fx(a.ratioBareCpu.median)})` : ''));
    if (a.parse) rows.push(sideRow('  events parser only', a.parse, a.ratioParse ? `analyze/parse throughput ${fx(a.ratioParse.median)} (CPU ${fx(a.ratioParseCpu.median)})` : ''));
  }
  if (r.rows) {
    const a = r.rows;
    rows.push(sideRow(`analyze ${a.lines ?? ''} rows of {}`, a.unavailable ? a : a.analyze, a.analyze ? `${a.analyze.rows ?? '?'} rows; temp files peak ${fmtMiB(a.analyze.tmpPeak.max)}, outputs ${fmtMiB(a.analyze.outBytes)}` : ''));
    if (a.bare) rows.push(sideRow('  bare JSON.parse loop', a.bare, a.ratio ? `analyze/bare throughput ${fx(a.ratio.median)}` : ''));
  }
  if (r.fleet) {
    const f = r.fleet;
    rows.push(sideRow(`analyze ${f.archives ?? 50} archives at once`, f.unavailable ? f : f.fleet, f.fleet ? `${fmtMiB(f.bytes)} in all, ${f.fleet.rows ?? '?'} rows` : ''));
    if (f.one) rows.push(sideRow('  one archive, same size', f.one, f.ratio ? `fleet/one ${fx(f.ratio.median)} (CPU ${fx(f.ratioCpu.median)})` : ''));
  }
  if (r.reports) {
    const x = r.reports;
    const o = x.outputs ?? {};
    const base = ['timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'].reduce((n, f) => n + (o[f] ?? 0), 0);
    const sizes = ['timeline.sqlite', 'timeline.timesketch.jsonl', 'report.html'].map((f) => `${f} ${fmtMiB(o[f] ?? 0)}`).join(', ');
    rows.push(sideRow('analyze with reports', x.unavailable ? x : x.reports, x.reports ? `${sizes} (the other outputs ${fmtMiB(base)})` : ''));
    if (x.bare) rows.push(sideRow('  analyze --no-reports', x.bare, x.ratio ? `with/without ${fx(x.ratio.median)} (CPU ${fx(x.ratioCpu.median)})` : ''));
  }
  if (r.findings) {
    const f = r.findings;
    rows.push(sideRow('analyze with findings', f.unavailable ? f : f.with, f.with ? `${f.findings ?? '?'} findings` : ''));
    if (f.without) rows.push(sideRow('  analyze --no-findings', f.without, f.ratio ? `with/without ${fx(f.ratio.median)} (CPU ${fx(f.ratioCpu.median)})` : ''));
  }
  if (r.dedup) {
    const d = r.dedup;
    rows.push(sideRow('dedupRows', d.unavailable ? d : d.dedup, d.dedup ? `${d.rows} rows, ${d.shared} share one text, ${d.dropped} dropped` : ''));
    if (d.sort) rows.push(sideRow('  sort by timestamp', d.sort, d.ratio ? `dedup/sort ${fx(d.ratio.median)}` : ''));
  }
  if (r.hostile && !r.hostile.unavailable) rows.push(sideRow('analyze bomb-honest.zip', r.hostile.bomb, `10 GiB member, ${r.hostile.reported ? 'reported' : 'NOT reported'} as failing its integrity check`));
  table(rows);
  if (r.scaling) {
    console.log('\nscaling (median time, peak RSS, time per MiB):');
    const srows = [['command', ...rep.corpora.map((c) => c.label)]];
    for (const [name, pts] of Object.entries(r.scaling)) {
      const label = name === 'bare' ? 'bare JSON.parse (baseline)' : name;
      if (!Array.isArray(pts)) srows.push([label, `not available yet: ${pts.unavailable?.slice(0, 70)}`]);
      else srows.push([label, ...pts.map((p) => `${fmtMs(p.ms.median)}, ${fmtMiB(p.rss.median)}, ${(p.ms.median / (p.bytes / MiB)).toFixed(1)} ms/MiB`)]);
    }
    table(srows);
  }
  console.log('\ntargets:');
  for (const t of rep.targets) {
    const mark = t.met === true ? 'MET   ' : t.met === false ? 'MISSED' : 'n/a   ';
    console.log(`  ${mark} ${t.name} ${t.target}: ${t.value}${t.note ? ` (${t.note})` : ''}`);
  }
}
