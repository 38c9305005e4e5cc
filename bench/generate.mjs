#!/usr/bin/env node
// Deterministic synthetic Copilot CLI homes for the benchmarks (and the generator's own test):
//   node bench/generate.mjs --out DIR [--size 100m|1g|2g] [--sessions N] [--seed S] [--homes K]
// Writes DIR/<user>/.copilot/... for each home and DIR/corpus.json (what was written: files,
// event counts per type, cut lines). The same options give the same bytes.
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemPrompt } from './lib/event-shapes.mjs';
import { makeTextPool, Rng } from './lib/prng.mjs';
import { writeSession } from './lib/session.mjs';
import { historyJson, permissionsConfig, processLog, sidebarFiles, snapshotsJson, workspaceYaml, writeStore } from './lib/stores.mjs';

/** Bump when the output for a given seed changes, so cached corpora are regenerated. */
export const GENERATOR_VERSION = 2;
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const PROJECTS = ['app', 'infra', 'api-server', 'docs-site', 'ml-pipeline', 'billing', 'frontend'];
const BASE_MS = Date.UTC(2026, 5, 1, 8, 0, 0);

/** `10m`, `1g`, `512k` or a byte count. */
export function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(String(s).trim());
  if (!m) throw new Error(`bad size ${s}: use e.g. 10m, 100m, 1g, 2g`);
  return Math.round(Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()]);
}

/**
 * Generate a corpus into `out` (emptied first). `size` (bytes) stops adding sessions once
 * reached; `sessions` fixes their number (with `size` too, each gets an equal share).
 */
export function generate({ out, size, sessions, seed = 1, homes = 1 }) {
  if (!size && !sessions) throw new Error('give a size or a number of sessions');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const rng = new Rng(seed);
  const pool = makeTextPool(rng.fork(), 2_000_000);
  const sysPrompt = systemPrompt(pool);
  const users = USERS.slice(0, Math.max(1, Math.min(homes, USERS.length)));
  const perHome = new Map(users.map((u) => [u, { sessions: [], history: [] }]));
  const target = size ?? Number.POSITIVE_INFINITY;
  const count = sessions ?? Number.POSITIVE_INFINITY;
  const perSession = size && sessions ? size / sessions : Number.POSITIVE_INFINITY;
  const corpus = { generator: GENERATOR_VERSION, seed, size: size ?? null, sessionsRequested: sessions ?? null, homes: users, sessions: [], counts: {}, bytes: 0, eventsBytes: 0 };
  let total = 0;

  const put = (path, text) => {
    writeFileSync(path, text);
    total += Buffer.byteLength(text);
  };

  for (let i = 0; i < count && total < target; i++) {
    const r = rng.fork();
    const user = users[i % users.length];
    const home = join(out, user);
    const id = r.uuid();
    const dir = join(home, '.copilot', 'session-state', id);
    mkdirSync(dir, { recursive: true });
    const cwd = `/home/${user}/src/${r.pick(PROJECTS)}`;
    const startMs = BASE_MS + i * 3_600_000 * 7 + r.int(0, 3_000_000);
    // Session 1 always ends in a cut line and session 2 is always stringified, so even a
    // small corpus has both; beyond that ~10% stringified and a few cut lines.
    const cut = i === 1 ? 'end' : r.chance(0.03) ? 'end' : r.chance(0.04) ? 'mid' : null;
    const stringified = i === 2 || r.chance(0.1);
    const fd = openSync(join(dir, 'events.jsonl'), 'w');
    let pending = [];
    let pendingChars = 0;
    let written = 0;
    const flush = () => {
      if (pending.length === 0) return;
      const text = pending.join('');
      writeSync(fd, text);
      written += Buffer.byteLength(text);
      pending = [];
      pendingChars = 0;
    };
    const res = writeSession({
      rng: r,
      pool,
      sysPrompt,
      id,
      home: `/home/${user}`,
      cwd,
      branch: r.pick(['main', 'dev', `feature/${r.hex(4)}`]),
      startMs,
      stringified,
      cut,
      interactions: perSession < Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : r.logNormal(10, 1.2, 1, 400),
      stop: () => {
        const mine = written + pendingChars;
        return total + mine >= target || mine >= perSession;
      },
      write: (s) => {
        pending.push(s);
        pendingChars += s.length;
        if (pendingChars > 4_000_000) flush();
      },
    });
    flush();
    closeSync(fd);
    total += written;
    corpus.eventsBytes += written;
    for (const [k, v] of Object.entries(res.counts)) corpus.counts[k] = (corpus.counts[k] ?? 0) + v;

    const meta = { id, cwd, branch: 'main', name: res.prompts[0]?.text.slice(0, 39).trim() || 'New session', created: new Date(startMs).toISOString(), updated: new Date(res.endMs).toISOString(), model: res.model, files: res.files, startMs, endMs: res.endMs };
    meta.prompts = res.prompts.map((p) => ({ ...p, promptOnly: r.chance(0.1) }));
    meta.synced = r.chance(0.2);
    Object.assign(meta, { mcTask: r.uuid(), mcSession: r.uuid(), mcLast: r.uuid() });
    put(join(dir, 'workspace.yaml'), workspaceYaml(meta));
    mkdirSync(join(dir, 'checkpoints'), { recursive: true });
    put(join(dir, 'checkpoints', 'index.md'), '| # | title | file |\n|---|---|---|\n');
    if (r.chance(0.3) && res.prompts.length > 0) {
      mkdirSync(join(dir, 'rewind-file-snapshots'), { recursive: true });
      put(join(dir, 'rewind-file-snapshots', 'index.json'), snapshotsJson(r, meta, res.prompts));
      put(join(dir, 'rewind-file-snapshots', 'tracking.json'), '{"schema":1,"tracking":{}}');
    }
    mkdirSync(join(home, '.copilot', 'logs'), { recursive: true });
    put(join(home, '.copilot', 'logs', `process-${startMs - 1000}-${r.int(1000, 65000)}.log`), processLog(r, pool, meta, `${user}-gh`));
    const h = perHome.get(user);
    h.sessions.push(meta);
    h.history.push(...res.prompts.map((p) => p.text), ...(r.chance(0.3) ? ['/model'] : []));
    corpus.sessions.push({ user, id, rel: `.copilot/session-state/${id}/events.jsonl`, bytes: written, lines: res.lines, cuts: res.cuts, stringified, counts: res.counts });
  }

  for (const [user, h] of perHome) {
    const c = join(out, user, '.copilot');
    mkdirSync(c, { recursive: true });
    // Sessions whose directory was deleted survive only in the store.
    const deleted = [];
    for (let k = 0; k < Math.ceil(h.sessions.length / 30); k++) deleted.push(deletedSession(rng, pool, user, k));
    writeStore(c, [...h.sessions, ...deleted]);
    put(join(c, 'command-history-state.json'), historyJson(h.history));
    put(join(c, 'permissions-config.json'), permissionsConfig(h.sessions));
    put(join(c, 'config.json'), JSON.stringify({ banner: 'never', model: 'gpt-6.1-sol', trusted_folders: [`/home/${user}/src`] }));
    put(join(c, 'open-sessions-state.json'), '{}');
    mkdirSync(join(c, 'sidebar-sessions-state'), { recursive: true });
    for (const f of sidebarFiles(h.sessions)) put(join(c, 'sidebar-sessions-state', f.name), f.text);
  }
  corpus.bytes = total;
  writeFileSync(join(out, 'corpus.json'), `${JSON.stringify(corpus, null, 1)}\n`);
  return corpus;
}

function deletedSession(rng, pool, user, k) {
  const id = rng.uuid();
  const created = new Date(BASE_MS - (k + 1) * 86_400_000).toISOString();
  const prompts = [0, 1, 2].map((j) => ({ text: pool.slice(j * 100 + k, j * 100 + k + 60).trim(), reply: pool.slice(5000 + j * 500, 6000 + j * 500), ts: created, endTs: created, promptOnly: false }));
  return { id, cwd: `/home/${user}/src/deleted-${k}`, branch: null, name: 'Deleted session', created, updated: created, model: 'claude-sonnet-5', files: [], prompts };
}

function parseArgs(argv) {
  const o = { seed: 1, homes: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--out') o.out = v;
    else if (a === '--size') o.size = parseSize(v);
    else if (a === '--sessions') o.sessions = Number(v);
    else if (a === '--seed') o.seed = Number(v);
    else if (a === '--homes') o.homes = Number(v);
    else throw new Error(`unknown option ${a}`);
    i += 1;
  }
  if (!o.out) throw new Error('usage: generate.mjs --out DIR [--size 100m] [--sessions N] [--seed S] [--homes K]');
  if (!o.size && !o.sessions) o.size = parseSize('100m');
  return o;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const o = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const c = generate(o);
  const events = Object.values(c.counts).reduce((a, b) => a + b, 0);
  console.log(`${o.out}: ${c.sessions.length} sessions, ${events} events, ${(c.bytes / 1024 ** 2).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
