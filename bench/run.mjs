#!/usr/bin/env node
// pnpm bench [--size 160m|1g|2g] [--runs N] [--only collect,walk,small,parse,analyze,reports,findings,dedup,scaling,rows,fleet,hostile] [--seed S]
// Generates (or reuses) three corpora of size/16, size/4 and size under bench/.work/ (plus, for
// `rows`, one log of ten million `{}` lines and, for `fleet`, fifty 20 MiB corpora and one of
// their total size), runs each benchmark against its baseline interleaved, prints a table with
// the targets met or missed, and writes bench/results.json. Build first (pnpm build): the bench
// runs the built dist.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseSize } from './generate.mjs';
import { corpusOf, fleetCorpora, manyRowsCorpus, sizeLabel, smallFilesCorpus, walkCorpus } from './lib/corpora.mjs';
import { haveTool } from './lib/commands.mjs';
import { ROOT } from './lib/packages.mjs';
import * as Sections from './lib/sections.mjs';
import { evaluateTargets, printReport } from './lib/report.mjs';

const ALL = ['collect', 'walk', 'small', 'parse', 'analyze', 'reports', 'findings', 'dedup', 'scaling', 'rows', 'fleet', 'hostile'];
/** The row-count extreme: lines of `{}` in one event log. */
const ROWS = 10_000_000;
/** Files of the walk bench's project tree. */
const WALK_FILES = 60_000;
/** Files of the small-files bench's home. */
const SMALL_FILES = 10_000;
/** The fleet: this many archives of this size, against one archive of their total size. */
const FLEET = { count: 50, size: 20 * 1024 * 1024 };

function parseArgs(argv) {
  const o = { size: parseSize('160m'), runs: 3, only: ALL, seed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const [a, v] = [argv[i], argv[i + 1]];
    if (a === '--size') o.size = parseSize(v);
    else if (a === '--runs') o.runs = Math.max(1, Number(v));
    else if (a === '--only') o.only = v.split(',').map((s) => s.trim());
    else if (a === '--seed') o.seed = Number(v);
    else if (a === '--help' || a === '-h') {
      console.log(`usage: pnpm bench [--size 160m|1g|2g] [--runs 3] [--only ${ALL.join(',')}] [--seed 1]`);
      process.exit(0);
    } else throw new Error(`unknown option ${a} (try --help)`);
    if (a !== '--help') i += 1;
  }
  for (const n of o.only) if (!ALL.includes(n)) throw new Error(`--only: unknown benchmark ${n} (one of ${ALL.join(', ')})`);
  if (o.size < parseSize('10m') || o.size > parseSize('2g')) throw new Error('--size: between 10m and 2g');
  return o;
}

function machine() {
  const cpus = os.cpus();
  let zip = null;
  try {
    zip = execFileSync('zip', ['-v'], { encoding: 'utf8' }).split('\n').find((l) => /Zip \d/.test(l))?.trim() ?? 'zip';
  } catch {
    // reported as absent
  }
  return { cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, ramBytes: os.totalmem(), node: process.version, os: `${os.type()} ${os.release()} ${os.arch()}`, zip, date: new Date().toISOString() };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(join(ROOT, 'packages', 'parsers', 'dist', 'index.js'))) {
    console.error('bench: packages are not built; run pnpm build first');
    process.exit(1);
  }
  if (!haveTool('zip')) console.error('bench: zip is not installed, so collect has no baseline; install it (apt-get install -y zip) and run again');
  const sizes = [o.size / 16, o.size / 4, o.size].map((s) => Math.round(s));
  const needCorpora = o.only.some((n) => ['collect', 'parse', 'analyze', 'reports', 'findings', 'scaling'].includes(n));
  const corpora = needCorpora ? (o.only.includes('scaling') ? sizes : [o.size]).map((s) => corpusOf(s, o.seed)) : [];
  const main16 = corpora.at(-1);
  const loadBefore = os.loadavg();
  const results = {};
  const section = async (name, fn) => {
    if (!o.only.includes(name)) return;
    process.stderr.write(`${name}:\n`);
    results[name] = await fn();
    if (results[name].unavailable) process.stderr.write(`  not available yet: ${results[name].unavailable}\n`);
  };
  await section('collect', () => Sections.collectSection(main16, o.runs));
  await section('walk', () => Sections.walkSection(walkCorpus(WALK_FILES), o.runs));
  await section('small', () => Sections.smallSection(smallFilesCorpus(SMALL_FILES), o.runs));
  await section('parse', () => Sections.parseSection(main16, o.runs));
  await section('analyze', () => Sections.analyzeSection(main16, o.runs));
  await section('reports', () => Sections.reportsSection(main16, o.runs));
  await section('findings', () => Sections.findingsSection(main16, o.runs));
  await section('dedup', () => Sections.dedupSection(o.runs));
  await section('rows', () => Sections.rowsSection(manyRowsCorpus(ROWS), o.runs));
  await section('fleet', () => Sections.fleetSection(fleetCorpora(FLEET.count, FLEET.size), corpusOf(FLEET.count * FLEET.size, o.seed), o.runs));
  await section('hostile', () => Sections.hostileSection(o.runs));
  await section('scaling', () => {
    const known = { collect: {}, parse: {}, bare: {}, analyze: {} };
    if (results.collect?.collect) known.collect[main16.label] = results.collect.collect;
    if (results.parse?.parse) known.parse[main16.label] = results.parse.parse;
    if (results.parse?.bare?.ms) known.bare[main16.label] = results.parse.bare;
    if (results.analyze?.analyze) known.analyze[main16.label] = results.analyze.analyze;
    return Sections.scalingSection(corpora, o.runs, known);
  });

  const corpusInfo = corpora.map((c) => ({ label: c.label, bytes: c.bytes, eventsBytes: c.eventsBytes, sessions: c.sessions.length, events: Object.values(c.counts).reduce((a, b) => a + b, 0), dir: c.dir }));
  const report = { machine: machine(), load: { before: loadBefore, after: os.loadavg() }, command: `pnpm bench ${process.argv.slice(2).join(' ')}`.trim(), options: { ...o, size: sizeLabel(o.size) }, corpora: corpusInfo, results };
  report.targets = evaluateTargets(results, main16);
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  printReport(report);
  console.log('\nwrote bench/results.json');
}

await main();
