// The bench's corpora under bench/.work/corpus/, each made once and reused: the generator's
// synthetic homes (one per size and seed), a home whose one event log is N lines of `{}` (every
// line a bad-line row: the row-count extreme), and a fleet of small corpora (one per machine).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, generate } from '../generate.mjs';
import { ROOT } from './packages.mjs';

const CORPUS = join(ROOT, 'bench', '.work', 'corpus');

/** `160m`, `1g`, `512k`: a size in bytes as a short label. */
export function sizeLabel(bytes) {
  const g = bytes / 1024 ** 3;
  if (g >= 1 && Number.isInteger(g)) return `${g}g`;
  const m = bytes / 1024 ** 2;
  return Number.isInteger(m) ? `${m}m` : `${(bytes / 1024).toFixed(0)}k`;
}

/** A generated corpus of `size` bytes, made once per seed and generator version, then reused. */
export function corpusOf(size, seed, name) {
  const dir = join(CORPUS, name ?? `seed${seed}-${sizeLabel(size)}`);
  const label = name ?? sizeLabel(size);
  const meta = join(dir, 'corpus.json');
  let c = existsSync(meta) ? JSON.parse(readFileSync(meta, 'utf8')) : null;
  if (!c || c.generator !== GENERATOR_VERSION || c.size !== size || c.seed !== seed) {
    process.stderr.write(`generating ${sizeLabel(size)} corpus (seed ${seed}) in ${dir}\n`);
    c = generate({ out: dir, size, seed });
  }
  return { ...c, dir, label };
}

/**
 * One home whose only artifact is an event log of `lines` lines of `{}`: each is a bad-line row
 * (an object without a "type"), so the rows are as many as the lines and as small as rows get.
 */
export function manyRowsCorpus(lines) {
  return madeOnce(`rows-${lines}`, (c) => c.lines === lines, `${lines} lines of {}`, (dir) => {
    const rel = '.copilot/session-state/00000000-0000-4000-8000-0000000000aa/events.jsonl';
    mkdirSync(join(dir, 'alice', rel, '..'), { recursive: true });
    const fd = openSync(join(dir, 'alice', rel), 'w');
    const block = '{}\n'.repeat(100_000);
    for (let n = 0; n < lines; n += 100_000) writeSync(fd, n + 100_000 <= lines ? block : '{}\n'.repeat(lines - n));
    closeSync(fd);
    return { generator: 'rows', lines, homes: ['alice'], sessions: [{ user: 'alice', rel, bytes: lines * 3 }], counts: { '{}': lines }, bytes: lines * 3, eventsBytes: lines * 3 };
  });
}

/**
 * A corpus under bench/.work/corpus/<label>, made once by `make(dir)` (which returns what its
 * corpus.json holds) and reused while that corpus.json passes `ok`.
 */
function madeOnce(label, ok, what, make) {
  const dir = join(CORPUS, label);
  const meta = join(dir, 'corpus.json');
  if (existsSync(meta)) {
    const c = JSON.parse(readFileSync(meta, 'utf8'));
    if (ok(c)) return { ...c, dir, label };
  }
  process.stderr.write(`writing ${what} in ${dir}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const c = make(dir);
  writeFileSync(meta, `${JSON.stringify(c)}\n`);
  return { ...c, dir, label };
}

/** `count` generated corpora of `size` bytes each (seeds 101, 102, ...): one machine each. */
export function fleetCorpora(count, size) {
  return Array.from({ length: count }, (_, i) => corpusOf(size, 101 + i, `fleet-${String(i + 1).padStart(2, '0')}-${sizeLabel(size)}`));
}

/**
 * A home whose `.claude.json` records one project: a source tree of `files` small files no
 * catalog wants (in folders of 20), a `node_modules` the walk never enters, and the project's
 * own CLAUDE.md files. What a developer's laptop makes the collector's project walk list.
 */
export function walkCorpus(files) {
  const label = `walk-${files}`;
  const proj = join(CORPUS, label, 'repo');
  // The home records the project by its absolute path: a moved checkout makes it again.
  return madeOnce(label, (c) => c.files === files && c.project === proj, `a project of ${files} files`, (dir) => {
    const put = (rel, text) => {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };
    put('sean/.claude.json', JSON.stringify({ projects: { [proj]: {} } }));
    put('repo/CLAUDE.md', '# repo\n');
    put('repo/.claude/settings.json', '{}\n');
    for (let i = 0; i < 1000; i++) put(`repo/node_modules/pkg${i % 50}/f${i}.js`, 'x');
    let bytes = 0;
    for (let n = 0; n < files; n++) {
      const text = `export const v${n} = ${n};\n`;
      if (n % 20 === 0) mkdirSync(join(proj, `src${Math.floor(n / 1000)}`, `m${Math.floor(n / 20) % 50}`), { recursive: true });
      writeFileSync(join(proj, `src${Math.floor(n / 1000)}`, `m${Math.floor(n / 20) % 50}`, `f${n}.ts`), text);
      bytes += text.length;
    }
    put('repo/src0/m0/CLAUDE.md', '# nested\n');
    return { generator: 'walk', files, project: proj, homes: ['sean'], sessions: [], counts: {}, bytes, eventsBytes: 0 };
  });
}

/**
 * A home of `files` small Codex session files (about 2.5 KiB each, one folder a day): what a
 * heavy user's `~/.codex/sessions` (or Claude Code's `todos/`) makes the collector read, where
 * the cost is per file rather than per byte.
 */
export function smallFilesCorpus(files) {
  return madeOnce(`small-${files}`, (c) => c.files === files && c.version === 2, `${files} small session files`, (dir) => {
    let bytes = 0;
    const sessions = [];
    for (let n = 0; n < files; n++) {
      const day = String(1 + (n % 28)).padStart(2, '0');
      const folder = join(dir, 'kim', '.codex', 'sessions', '2026', '01', day);
      if (n < 28) mkdirSync(folder, { recursive: true });
      const at = `2026-01-${day}T00:00:00Z`;
      const lines = [JSON.stringify({ timestamp: at, type: 'session_meta', payload: { id: `s${n}`, cwd: `/home/kim/p${n % 50}`, originator: 'codex_cli_rs' } })];
      for (let k = 0; k < 8; k++) lines.push(JSON.stringify({ timestamp: at, type: 'response_item', payload: { type: 'message', role: k % 2 ? 'assistant' : 'user', content: [{ type: 'input_text', text: `message ${k} of session ${n} `.repeat(10) }] } }));
      const text = `${lines.join('\n')}\n`;
      const name = `rollout-2026-01-${day}T00-00-00-${String(n).padStart(8, '0')}.jsonl`;
      writeFileSync(join(folder, name), text);
      // The bare loop's files (bench/workers/parse.mjs reads `sessions`).
      sessions.push({ user: 'kim', rel: `.codex/sessions/2026/01/${day}/${name}`, bytes: text.length });
      bytes += text.length;
    }
    return { generator: 'small', version: 2, files, homes: ['kim'], sessions, counts: {}, bytes, eventsBytes: bytes };
  });
}
