import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED, generate, listTree, manifestOf, REPO, runCli, snapshotTree, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// The collector on a hostile target, through the built CLI: things a walk must not open, follow
// or hang on; permission denied; a read-only home; a disk that fills; files that change mid-walk.

const HAZARD = join(GENERATED, 'collector/home/hazard');
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const isRoot = process.getuid?.() === 0;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function canMount(): boolean {
  if (!isRoot) return false;
  const d = tempDir('mountprobe');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', d], { stdio: 'ignore' });
    execFileSync('umount', [d], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

beforeAll(() => generate('collector'));

describe('aitrail collect on a hostile home', () => {
  let T: string;
  let before: Map<string, string>;
  let run: Awaited<ReturnType<typeof runCli>>;
  let m: Awaited<ReturnType<typeof manifestOf>>;
  const row = (rel: string) => m.rows.find((r) => r.agent === 'copilot-cli' && r.rel === rel);

  beforeAll(async () => {
    T = tempDir('collector');
    mkdirSync(join(T, 'cwd'));
    before = snapshotTree(HAZARD);
    // A FIFO opened, or /dev/zero read, would hang or never end: the timeout turns that into a failure.
    run = await runCli(['collect', '--home', HAZARD, '--out', join(T, 'out', 'c.zip')], { cwd: join(T, 'cwd'), timeoutMs: 60_000 });
    m = await manifestOf(join(T, 'out', 'c.zip'));
  }, 120_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('finishes in bounded time with exit 0, an archive, its .sha256, and no stack trace', () => {
    expect(run.timedOut, run.stderr.slice(-2000)).toBe(false);
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    expect(readdirSync(join(T, 'out')).sort()).toEqual(['c.zip', 'c.zip.sha256']);
  });

  it('records the FIFO, the devices and the socket without opening them', () => {
    expect(row('.copilot/logs/process-1790845199000-1.log')).toMatchObject({ status: 'skipped_special', kind: 'fifo', archive_path: '' });
    expect(row('.copilot/ide/agent.sock')).toMatchObject({ status: 'skipped_special', kind: 'socket', archive_path: '' });
    if (isRoot) {
      expect(row('.copilot/zero-device')).toMatchObject({ status: 'skipped_special', kind: 'char_device', archive_path: '' });
      expect(row('.copilot/null-device')).toMatchObject({ status: 'skipped_special', kind: 'char_device' });
      expect(row('.copilot/block-device')).toMatchObject({ status: 'skipped_special', kind: 'block_device' });
    }
  });

  it('records every link with its target and follows none (loops, out of the home, at a wanted path)', async () => {
    const links: Record<string, string> = {
      '.copilot/loop': 'loop',
      '.copilot/a': 'b',
      '.copilot/b': 'a',
      '.copilot/session-state/dirloop': '..',
      '.copilot/session-state/5e55a0a1-0000-4000-8000-0000000000aa/events.jsonl': '/etc/passwd',
      '.copilot/etc-link': '/etc',
      '.copilot/dangling': '/nonexistent/target',
    };
    for (const [rel, target] of Object.entries(links)) expect(row(rel), rel).toMatchObject({ status: 'skipped_special', kind: 'symlink', link_target: target, archive_path: '' });
    // Nothing under /etc was walked or archived.
    expect(m.rows.filter((r) => r.rel.startsWith('.copilot/etc-link/') || r.source_path.startsWith('/etc/'))).toEqual([]);
    const passwd = statSync('/etc/passwd').size;
    for (const name of m.members) if (name.startsWith('homes/')) expect((await m.read(name)).toString('utf8')).not.toMatch(/^root:x?:0:0:/m);
    expect(passwd).toBeGreaterThan(0);
  });

  it('gives a path over 4,096 bytes an error row and goes on', () => {
    const long = m.rows.filter((r) => r.agent === 'copilot-cli' && r.rel.includes('/files/dddd'));
    expect(long.length).toBeGreaterThanOrEqual(1);
    for (const r of long) expect(r).toMatchObject({ status: 'error' });
    expect(long.some((r) => /ENAMETOOLONG/.test(r.reason))).toBe(true);
    expect(row(`.copilot/session-state/${SID}/workspace.yaml`)).toMatchObject({ status: 'collected' });
  });

  it('collects a file whose name is not valid UTF-8 under an escaped name, saying so', async () => {
    const bad = m.rows.find((r) => r.rel.startsWith(`.copilot/session-state/${SID}/bad`));
    expect(bad).toMatchObject({ status: 'collected' });
    expect(bad!.reason).toMatch(/not valid UTF-8/);
    expect(bad!.rel).not.toContain('\uFFFD');
    expect((await m.read(bad!.archive_path)).toString()).toBe('bad name\n');
  });

  it('keeps archive and manifest consistent: every collected member hashes to its row', async () => {
    const collected = m.rows.filter((r) => r.status === 'collected');
    expect(collected.length).toBeGreaterThanOrEqual(4);
    for (const r of collected) {
      const b = await m.read(r.archive_path);
      expect(sha(b), r.rel).toBe(r.sha256);
      expect(b.length, r.rel).toBe(r.bytes_read);
    }
    expect(m.problems).toEqual([]);
  });

  it('changes nothing in the home and writes nothing outside the output folder', () => {
    expect(snapshotTree(HAZARD)).toEqual(before);
    expect(listTree(T).map((p) => p.slice(T.length))).toEqual(['/cwd', '/out', '/out/c.zip', '/out/c.zip.sha256']);
  });
});

describe('aitrail collect and an output inside the evidence', () => {
  // DESIGN says collect never writes into a home: `--out` inside a home being collected (or
  // a project root, or COPILOT_HOME) is a usage error, refused before anything is created.
  it('refuses --out inside a home it collects, writing nothing there', async () => {
    const T = tempDir('out-in-home');
    const home = join(T, 'sean');
    cpSync(join(REPO, 'fixtures/homes/seed-copilot'), home, { recursive: true });
    try {
      const before = listTree(home);
      const run = await runCli(['collect', '--home', home, '--agent', 'copilot-cli', '--out', join(home, '.copilot', 'c.zip')], { timeoutMs: 60_000 });
      expect(stackTraceLines(run.stderr)).toEqual([]);
      expect(run.code).toBe(2);
      expect(run.stderr.replace(/\s*\n\s*(›\s*)?/g, ' ')).toMatch(/expected a folder outside every home and project collected, found it inside the home/);
      expect(listTree(home)).toEqual(before);
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  });
});

describe('aitrail collect and SQLite on the target', () => {
  it('never opens a database: session-store.db, its -wal and -shm are archived and left byte for byte, times unchanged', async () => {
    const T = tempDir('sqlite');
    const home = join(T, 'sean');
    cpSync(join(REPO, 'fixtures/homes/seed-copilot'), home, { recursive: true, preserveTimestamps: true });
    const names = ['session-store.db', 'session-store.db-wal', 'session-store.db-shm'].map((n) => join(home, '.copilot', n));
    const before = snapshotTree(join(home, '.copilot'));
    const bytes = names.map((n) => sha(readFileSync(n)));
    try {
      const run = await runCli(['collect', '--home', home, '--agent', 'copilot-cli', '--out', join(T, 'c.zip')], { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      // Opening the database and closing it would fold the WAL in and delete -wal and -shm.
      expect(names.map((n) => sha(readFileSync(n)))).toEqual(bytes);
      expect(snapshotTree(join(home, '.copilot'))).toEqual(before);
      const m = await manifestOf(join(T, 'c.zip'));
      for (const [i, n] of ['session-store.db', 'session-store.db-wal', 'session-store.db-shm'].entries()) {
        const r = m.rows.find((x) => x.rel === `.copilot/${n}`);
        expect(r, n).toMatchObject({ status: 'collected', sha256: bytes[i] });
      }
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  });
});

describe.runIf(isRoot)('aitrail collect as an unprivileged user (root reads everything, so the test drops to uid 65534)', () => {
  it('gives an unreadable file and an unreadable directory a permission-denied row and goes on', async () => {
    const T = tempDir('eacces');
    try {
      chmodSync(T, 0o755);
      const home = join(T, 'sean');
      const s = join(home, '.copilot/session-state', SID);
      mkdirSync(s, { recursive: true });
      cpSync(join(REPO, 'fixtures/homes/seed-copilot/.copilot/session-state', SID, 'events.jsonl'), join(s, 'events.jsonl'));
      writeFileSync(join(home, '.copilot/command-history-state.json'), '{"commandHistory":["secret"]}\n');
      chmodSync(join(home, '.copilot/command-history-state.json'), 0o000);
      const locked = join(home, '.copilot/session-state/5e55a0a1-0000-4000-8000-0000000000cc');
      mkdirSync(locked);
      writeFileSync(join(locked, 'events.jsonl'), '{}\n');
      chmodSync(locked, 0o000);
      for (const d of ['out', 'nobody']) {
        mkdirSync(join(T, d));
        chownSync(join(T, d), 65534, 65534);
      }
      const run = await runCli(['collect', '--home', home, '--out', join(T, 'out', 'c.zip')], { uid: 65534, gid: 65534, cwd: join(T, 'nobody'), env: { HOME: join(T, 'nobody'), XDG_CONFIG_HOME: join(T, 'nobody'), XDG_CACHE_HOME: join(T, 'nobody'), XDG_DATA_HOME: join(T, 'nobody') }, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(stackTraceLines(run.stderr)).toEqual([]);
      const m = await manifestOf(join(T, 'out', 'c.zip'));
      const hist = m.rows.find((r) => r.rel === '.copilot/command-history-state.json');
      expect(hist).toMatchObject({ status: 'error', archive_path: '' });
      expect(hist!.reason).toMatch(/permission denied \(EACCES\)/);
      const dir = m.rows.find((r) => r.rel === '.copilot/session-state/5e55a0a1-0000-4000-8000-0000000000cc');
      expect(dir).toMatchObject({ status: 'error' });
      expect(dir!.reason).toMatch(/EACCES/);
      // A root-owned file read as uid 65534: the kernel refuses O_NOATIME (EPERM), the retry reads it.
      expect(m.rows.find((r) => r.rel === `.copilot/session-state/${SID}/events.jsonl`)).toMatchObject({ status: 'collected' });
      // The error message names the file, never its content.
      expect(run.stderr + run.stdout).not.toContain('"commandHistory"');
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  });
});

describe.runIf(isRoot)('aitrail collect and terminal control sequences in target file names', () => {
  // An error line names the path as found: a directory named with ESC ] 0 ; … BEL once set the
  // operator's terminal title (or worse) during collect. Now escaped as \xNN.
  it('prints an unreadable directory whose name holds ESC and BEL escaped, not raw', async () => {
    const T = tempDir('esc-collect');
    try {
      chmodSync(T, 0o755);
      const d = join(T, 'sean/.copilot/session-state/\x1b]0;PWNED\x07dir');
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'f'), 'x');
      chmodSync(d, 0o000);
      mkdirSync(join(T, 'out'));
      chownSync(join(T, 'out'), 65534, 65534);
      const run = await runCli(['collect', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', join(T, 'out', 'c.zip')], { uid: 65534, gid: 65534, cwd: join(T, 'out'), env: { HOME: join(T, 'out') }, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/EACCES/);
      expect(/[\x1b\x07]/.test(run.stderr + run.stdout)).toBe(false);
      expect(run.stderr).toContain('\\x1b]0;PWNED\\x07dir');
    } finally {
      execFileSync('chmod', ['-R', 'u+rwx', T]);
      rmSync(T, { recursive: true, force: true });
    }
  });
});

describe.runIf(canMount())('aitrail collect with mounts (root)', () => {
  it('collects a home on a read-only bind mount exactly as the same home read-write', async () => {
    const T = tempDir('ro');
    const ro = join(T, 'ro', 'seed');
    mkdirSync(ro, { recursive: true });
    const src = join(REPO, 'fixtures/homes/seed-copilot');
    execFileSync('mount', ['--bind', '-o', 'ro', src, ro]);
    try {
      const a = await runCli(['collect', '--home', ro, '--agent', 'copilot-cli', '--out', join(T, 'a.zip')], { timeoutMs: 60_000 });
      const b = await runCli(['collect', '--home', src, '--agent', 'copilot-cli', '--out', join(T, 'b.zip')], { timeoutMs: 60_000 });
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      expect(stackTraceLines(a.stderr)).toEqual([]);
      const key = (r: { rel: string; status: string; sha256: string; size: number | null }) => `${r.rel} ${r.status} ${r.sha256} ${r.size}`;
      const ma = (await manifestOf(join(T, 'a.zip'))).rows.filter((r) => r.scope === 'home').map(key).sort();
      const mb = (await manifestOf(join(T, 'b.zip'))).rows.filter((r) => r.scope === 'home').map(key).sort();
      expect(ma.length).toBeGreaterThanOrEqual(10);
      expect(ma).toEqual(mb);
    } finally {
      execFileSync('umount', [ro]);
      rmSync(T, { recursive: true, force: true });
    }
  });

  it('fails clearly when the disk fills while writing the archive, leaving no .zip and no .sha256', async () => {
    const T = tempDir('full');
    const full = join(T, 'full');
    mkdirSync(full);
    const home = join(T, 'sean');
    const s = join(home, '.copilot/session-state', SID);
    mkdirSync(s, { recursive: true });
    // Incompressible bytes, more than the 2 MB the archive may use.
    const rnd = Buffer.alloc(6 << 20);
    for (let i = 0; i < rnd.length; i += 32) createHash('sha256').update(String(i)).digest().copy(rnd, i);
    writeFileSync(join(s, 'events.jsonl'), rnd);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', full]);
    try {
      const run = await runCli(['collect', '--home', home, '--out', join(full, 'c.zip')], { timeoutMs: 60_000 });
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.code).not.toBe(null);
      expect(stackTraceLines(run.stderr)).toEqual([]);
      expect(run.stderr).toMatch(/ENOSPC|no space/i);
      const left = readdirSync(full);
      expect(left.filter((n) => n.endsWith('.zip') || n.endsWith('.sha256'))).toEqual([]);
      expect(left, 'the .partial is removed too').toEqual([]);
    } finally {
      execFileSync('umount', [full]);
      rmSync(T, { recursive: true, force: true });
    }
  });
});

describe('aitrail collect while files change under it', () => {
  it('keeps every archived member equal to its manifest row while files grow, shrink, vanish and are replaced', async () => {
    const T = tempDir('mutate');
    const logs = join(T, 'sean/.copilot/logs');
    mkdirSync(logs, { recursive: true });
    const names = Array.from({ length: 16 }, (_, i) => `process-17908451990${String(i).padStart(2, '0')}-${i}.log`);
    for (const n of names) writeFileSync(join(logs, n), Buffer.alloc(2 << 20, `${n}\n`));
    // The mutator: grow, shrink, delete-and-recreate and rename-over, in a loop. Bounded on
    // purpose: files stay under 8 MB and it exits by itself after 40 s, even if this test dies.
    const script = `
      const fs = require('fs'); const path = require('path');
      const dir = ${JSON.stringify(logs)}; const names = ${JSON.stringify(names)};
      const blob = Buffer.alloc(256 * 1024, 'mutating\\n');
      const stop = Date.now() + 40000; const nap = new Int32Array(new SharedArrayBuffer(4));
      for (let k = 0; Date.now() < stop; k++) {
        names.forEach((n, i) => {
          const p = path.join(dir, n);
          try {
            if (i % 4 === 0) { if (fs.statSync(p).size > (8 << 20)) fs.truncateSync(p, 2 << 20); else fs.appendFileSync(p, blob); }
            else if (i % 4 === 1) fs.truncateSync(p, (k * 7919) % (2 << 20));
            else if (i % 4 === 2) { fs.rmSync(p, { force: true }); fs.writeFileSync(p, blob); }
            else { fs.writeFileSync(p + '.tmp', blob.subarray(0, (k % 8 + 1) * 32768)); fs.renameSync(p + '.tmp', p); }
          } catch {}
        });
        Atomics.wait(nap, 0, 0, 2);
      }`;
    const mutator = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      const reasons: string[] = [];
      for (let i = 0; i < 2; i++) {
        const out = join(T, `c${i}.zip`);
        const run = await runCli(['collect', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', out], { timeoutMs: 40_000 });
        expect(run.code, run.stderr.slice(-2000)).toBe(0);
        expect(stackTraceLines(run.stderr)).toEqual([]);
        const m = await manifestOf(out);
        for (const n of names.filter((_, k) => k % 4 !== 2)) expect(m.rows.some((r) => r.rel === `.copilot/logs/${n}`), n).toBe(true);
        for (const r of m.rows.filter((x) => x.status === 'collected')) {
          const b = await m.read(r.archive_path);
          expect(sha(b), r.rel).toBe(r.sha256);
          expect(b.length, r.rel).toBe(r.bytes_read);
        }
        reasons.push(...m.rows.map((r) => r.reason).filter(Boolean));
      }
      // Not every run catches a change mid-read; over two runs of 16 busy files some must.
      expect(reasons.some((r) => /changed while read|vanished|replaced/.test(r)), reasons.join('\n')).toBe(true);
    } finally {
      mutator.kill('SIGKILL');
      rmSync(T, { recursive: true, force: true });
    }
  }, 150_000);

  it('finishes reading a file that a live process keeps appending to, saying it changed', async () => {
    const T = tempDir('grow');
    const p = join(T, 'sean/.copilot/logs/process-1790845199000-7.log');
    mkdirSync(join(T, 'sean/.copilot/logs'), { recursive: true });
    writeFileSync(p, Buffer.alloc(64 << 20, 'login pending\n'));
    // Appends 1 MB every 10 ms for 40 s (at most 1.5 GB). A reader that chased EOF would read on
    // until the writer stops and end with every byte; one that stops at the size seen at open ends
    // with fewer bytes than the file finally holds. No wall-clock bound: load cannot fail it.
    // Once collect has exited the writer is stopped: its bounds only matter to a reader that
    // chases, which cannot exit before them (waiting them out cost 15-40 s and 1.5 GB of writes).
    const writer = spawn(
      process.execPath,
      ['-e', `const fs=require('fs');const p=${JSON.stringify(p)};const b=Buffer.alloc(1<<20,'x\\n');const stop=Date.now()+40000;const t=setInterval(()=>{if(Date.now()>stop||fs.statSync(p).size>1.5e9){clearInterval(t);return;}fs.appendFileSync(p,b);},10);`],
      { stdio: 'ignore' },
    );
    const writerDone = new Promise((r) => writer.on('exit', r));
    try {
      const run = await runCli(['collect', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', join(T, 'c.zip')], { timeoutMs: 150_000 });
      expect(run.timedOut).toBe(false);
      expect(run.code, run.stderr.slice(-1000)).toBe(0);
      writer.kill('SIGKILL');
      await writerDone;
      const finalSize = statSync(p).size;
      const r = (await manifestOf(join(T, 'c.zip'))).rows.find((x) => x.rel === '.copilot/logs/process-1790845199000-7.log');
      expect(r).toMatchObject({ status: 'collected' });
      expect(r!.reason).toMatch(/changed while read/);
      expect(r!.bytes_read).toBeGreaterThanOrEqual(64 << 20);
      expect(r!.bytes_read!).toBeLessThan(finalSize);
    } finally {
      writer.kill('SIGKILL');
      rmSync(T, { recursive: true, force: true });
    }
  }, 200_000);

  it('stops on SIGTERM in the middle of a large file: exit 143, no .zip, no .sha256, no .partial', async () => {
    const T = tempDir('sigterm');
    mkdirSync(join(T, 'sean/.copilot/logs'), { recursive: true });
    mkdirSync(join(T, 'out'));
    execFileSync('truncate', ['-s', '3G', join(T, 'sean/.copilot/logs/process-1790845199000-8.log')]);
    try {
      let pid = 0;
      let exited = false;
      const started = runCli(['collect', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', join(T, 'out', 'c.zip')], { timeoutMs: 150_000, onSpawn: (p) => (pid = p) }).finally(() => (exited = true));
      // Wait until the archive is being written, then interrupt. No clock bound here: on a loaded
      // machine the start alone can take many seconds; the test's own timeout is the bound.
      while (!exited && !readdirSync(join(T, 'out')).some((n) => n.endsWith('.partial'))) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1500));
      process.kill(pid, 'SIGTERM');
      const run = await started;
      expect(run.timedOut).toBe(false);
      expect(run.code, run.stderr).toBe(143);
      expect(stackTraceLines(run.stderr)).toEqual([]);
      expect(readdirSync(join(T, 'out'))).toEqual([]);
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  }, 180_000);

  it('scan stops on SIGTERM while collecting too: exit 143, no collection.zip.partial left, so the next scan may run', async () => {
    const T = tempDir('scan-sigterm');
    mkdirSync(join(T, 'sean/.copilot/logs'), { recursive: true });
    execFileSync('truncate', ['-s', '3G', join(T, 'sean/.copilot/logs/process-1790845199000-8.log')]);
    const out = join(T, 'out');
    try {
      let pid = 0;
      let exited = false;
      const started = runCli(['scan', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', out], { timeoutMs: 150_000, onSpawn: (p) => (pid = p) }).finally(() => (exited = true));
      // Bounded by the test's timeout, not a count of polls: a loaded machine starts slowly.
      while (!exited && !(existsSync(out) && readdirSync(out).some((n) => n.endsWith('.partial')))) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(out)).toEqual(['collection.zip.partial']);
      process.kill(pid, 'SIGTERM');
      const run = await started;
      expect(run.timedOut).toBe(false);
      expect(run.code, run.stderr).toBe(143);
      expect(run.stderr).toContain('interrupted by SIGTERM');
      expect(stackTraceLines(run.stderr)).toEqual([]);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  }, 180_000);

  it('records atime as it was before the read, and leaves it so (O_NOATIME; relatime would update it on a plain read)', async () => {
    const T = tempDir('atime');
    const p = join(T, 'sean/.copilot/command-history-state.json');
    mkdirSync(join(T, 'sean/.copilot'), { recursive: true });
    writeFileSync(p, '{"commandHistory":["x"]}\n');
    // atime older than mtime: under relatime, the next read updates atime.
    utimesSync(p, new Date('2020-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
    try {
      const run = await runCli(['collect', '--home', join(T, 'sean'), '--agent', 'copilot-cli', '--out', join(T, 'c.zip')], { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const r = (await manifestOf(join(T, 'c.zip'))).rows.find((x) => x.rel === '.copilot/command-history-state.json');
      expect(r).toMatchObject({ status: 'collected', atime: '2020-01-01T00:00:00.000Z', mtime: '2021-01-01T00:00:00.000Z' });
      if (process.platform === 'linux') {
        // The collector's own read (O_NOATIME, as root or the owner) left atime alone ...
        expect(statSync(p).atime.toISOString()).toBe('2020-01-01T00:00:00.000Z');
        // ... where a plain read updates it on this file system (else the line above proves nothing).
        readFileSync(p);
        expect(statSync(p).atime.toISOString(), 'this file system does not update atime on read (noatime?)').not.toBe('2020-01-01T00:00:00.000Z');
      }
    } finally {
      rmSync(T, { recursive: true, force: true });
    }
  });
});
