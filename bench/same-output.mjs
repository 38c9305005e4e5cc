#!/usr/bin/env node
// Byte-identical outputs, checked rather than eyeballed: every output file of `aitrail analyze`
// over a fixed set of inputs, hashed with SHA-256, from two builds (or two job counts) compared.
//
//   node bench/same-output.mjs record --cli <path/to/bin/run.js> --tag base [-- extra analyze args]
//   node bench/same-output.mjs record --tag jobs4 -- --jobs 4      (this tree's CLI)
//   node bench/same-output.mjs check base jobs4                    (exit 1 on any difference)
//
// The inputs are collected once (by this tree's CLI) into bench/.work/same-output/inputs/ and
// reused, so both sides analyze the very same archives: every fixtures/homes/* home alone, all
// of them in one collection, two collections in one analyze, the seed unpacked as a folder,
// the real corpus (../shared/corpus/real, laid out as the e2e analyze-corpus test does) and a
// generated two-home corpus from bench/generate.mjs. To compare with main: build main in a
// separate worktree and record with its bin/run.js as --cli (docs/performance.md, "Same bytes").
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from './generate.mjs';
import { CLI, ROOT } from './lib/packages.mjs';

const WORK = join(ROOT, 'bench', '.work', 'same-output');
const INPUTS = join(WORK, 'inputs');
const HOMES = join(ROOT, 'fixtures', 'homes');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real');
// The real corpus names project roots such as /work that exist on a build machine: collected
// from inside them, the --out guard refuses the archive, so that case lives in the temp folder.
const OUTSIDE = join(tmpdir(), 'aitrail-same-output');
const OUTPUTS = ['timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, NO_COLOR: '1' }, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`);
  return r;
}

function flip(file, at) {
  const b = readFileSync(file);
  b[at] ^= 1;
  writeFileSync(file, b);
}

function collect(name, homes, dir = INPUTS) {
  const out = join(dir, `${name}.zip`);
  if (!existsSync(out)) {
    rmSync(`${out}.partial`, { force: true }); // left by an interrupted run
    run('node', [CLI, 'collect', ...homes.flatMap((h) => ['--home', h]), '--out', out]);
  }
  return out;
}

/** The real corpus laid out as homes, the way src/e2e/analyze-corpus.test.ts does it. */
function corpusHomes() {
  const dir = join(OUTSIDE, 'corpus-homes');
  if (existsSync(join(dir, '.done'))) return readdirSync(dir).filter((n) => n !== '.done').map((n) => join(dir, n));
  rmSync(dir, { recursive: true, force: true });
  const copilot = { kaijon: 'Kaijon__little-hou-claw/.copilot', xeff09: 'XEFF09__dotfiles/.copilot', lantern: 'WildChildForLife__lantern/fixtures/copilot-home' };
  for (const [user, rel] of Object.entries(copilot)) cpSync(join(CORPUS, rel), join(dir, user, '.copilot'), { recursive: true });
  const irr = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/claudecode/scenarios');
  for (const sc of readdirSync(irr).sort()) {
    const recDir = join(irr, sc, 'recordings');
    for (const rec of readdirSync(recDir).sort()) {
      const t = join(recDir, rec, 'transcript.jsonl');
      if (!existsSync(t)) continue;
      let sid = rec;
      for (const line of readFileSync(t, 'utf8').split('\n')) {
        try {
          const o = JSON.parse(line);
          if (typeof o.sessionId === 'string') {
            sid = o.sessionId;
            break;
          }
        } catch {}
      }
      const to = join(dir, 'irrlicht', '.claude', 'projects', `-tmp-${sc}`);
      mkdirSync(to, { recursive: true });
      cpSync(t, join(to, `${sid}.jsonl`));
    }
  }
  writeFileSync(join(dir, '.done'), '');
  return readdirSync(dir).filter((n) => n !== '.done').map((n) => join(dir, n));
}

/** Every case: a name, the analyze inputs and its own extra flags. */
function prepare() {
  mkdirSync(INPUTS, { recursive: true });
  const cases = [];
  const homes = readdirSync(HOMES).sort();
  for (const h of homes) cases.push({ name: `home-${h}`, inputs: [collect(`home-${h}`, [join(HOMES, h)])] });
  cases.push({ name: 'all-homes', inputs: [collect('all-homes', homes.map((h) => join(HOMES, h)))] });
  cases.push({ name: 'two-inputs', inputs: [join(INPUTS, 'home-seed-copilot.zip'), join(INPUTS, 'home-seed-claude.zip')] });
  cases.push({ name: 'seed-no-dedup', inputs: [join(INPUTS, 'home-seed-copilot.zip')], args: ['--no-dedup'] });
  cases.push({ name: 'seed-thinking', inputs: [join(INPUTS, 'home-seed-claude.zip')], args: ['--include-thinking'] });
  const unpacked = join(INPUTS, 'seed-copilot-dir');
  if (!existsSync(join(unpacked, 'manifest.jsonl'))) {
    rmSync(unpacked, { recursive: true, force: true });
    run('unzip', ['-q', join(INPUTS, 'home-seed-copilot.zip'), '-d', unpacked]);
  }
  cases.push({ name: 'seed-unpacked', inputs: [unpacked] });
  // Tampered copies of the unpacked seed: a member whose hash fails after it was read (the log,
  // seen by the workspace parser as a sibling; the store's -wal, a SQLite sidecar), a cut member,
  // an extra one.
  const sd = 'homes/seed-copilot/.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001';
  const tampered = [
    ['tampered-log', (d) => flip(join(d, sd, 'events.jsonl'), 200)],
    ['tampered-wal', (d) => flip(join(d, 'homes/seed-copilot/.copilot/session-store.db-wal'), 9000)],
    ['tampered-cut', (d) => writeFileSync(join(d, sd, 'workspace.yaml'), readFileSync(join(d, sd, 'workspace.yaml')).subarray(0, 50))],
    ['tampered-extra', (d) => writeFileSync(join(d, 'homes/seed-copilot/.copilot/extra.txt'), 'not in the manifest\n')],
  ];
  for (const [name, change] of tampered) {
    const d = join(INPUTS, name);
    if (!existsSync(join(d, 'manifest.jsonl'))) {
      rmSync(d, { recursive: true, force: true });
      cpSync(unpacked, d, { recursive: true });
      change(d);
    }
    cases.push({ name, inputs: [d] });
  }
  if (existsSync(CORPUS)) cases.push({ name: 'real-corpus', inputs: [collect('real-corpus', corpusHomes(), OUTSIDE)] });
  const gen = join(WORK, 'generated');
  if (!existsSync(join(gen, 'corpus.json'))) generate({ out: gen, size: 48 * 1024 * 1024, seed: 3, homes: 2 });
  const genZip = collect('generated', readdirSync(gen).filter((n) => n !== 'corpus.json').sort().map((n) => join(gen, n)));
  cases.push({ name: 'generated', inputs: [genZip] });
  cases.push({ name: 'generated-no-dedup', inputs: [genZip], args: ['--no-dedup'] });
  return cases;
}

function record(cli, tag, extra) {
  const cases = prepare();
  const hashes = {};
  for (const c of cases) {
    const out = join(WORK, 'out', tag, c.name);
    rmSync(out, { recursive: true, force: true });
    const t0 = Date.now();
    run('node', [cli, 'analyze', ...c.inputs, '--out', out, ...(c.args ?? []), ...extra]);
    hashes[c.name] = Object.fromEntries(OUTPUTS.map((f) => [f, existsSync(join(out, f)) ? createHash('sha256').update(readFileSync(join(out, f))).digest('hex') : null]));
    process.stderr.write(`${tag}: ${c.name} (${Date.now() - t0} ms)\n`);
    rmSync(out, { recursive: true, force: true });
  }
  const file = join(WORK, `hashes-${tag}.json`);
  writeFileSync(file, `${JSON.stringify({ cli, extra, hashes }, null, 2)}\n`);
  console.log(`wrote ${file}: ${cases.length} cases, ${cases.length * OUTPUTS.length} outputs`);
}

function check(a, b) {
  const [ha, hb] = [a, b].map((t) => JSON.parse(readFileSync(join(WORK, `hashes-${t}.json`), 'utf8')).hashes);
  let diff = 0;
  let same = 0;
  for (const name of new Set([...Object.keys(ha), ...Object.keys(hb)])) {
    for (const f of OUTPUTS) {
      if (ha[name]?.[f] && ha[name][f] === hb[name]?.[f]) same++;
      else {
        diff++;
        console.log(`DIFFERS ${name}/${f}: ${a} ${ha[name]?.[f] ?? 'absent'} vs ${b} ${hb[name]?.[f] ?? 'absent'}`);
      }
    }
  }
  console.log(`${same} outputs identical, ${diff} different (${a} vs ${b})`);
  if (diff > 0) process.exit(1);
}

const [cmd, ...rest] = process.argv.slice(2);
const dash = rest.indexOf('--');
const extra = dash >= 0 ? rest.slice(dash + 1) : [];
const args = dash >= 0 ? rest.slice(0, dash) : rest;
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
if (cmd === 'record') record(opt('--cli', CLI), opt('--tag', 'current'), extra);
else if (cmd === 'check' && args.length === 2) check(args[0], args[1]);
else {
  console.error('usage: node bench/same-output.mjs record [--cli bin/run.js] [--tag T] [-- analyze args] | check TAG_A TAG_B');
  process.exit(2);
}
