import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import type { Layout } from '../homes.js';
import { streamLines } from '../line-stream.js';
import { isoFromMs, isoTime } from './paths.js';
import { hexDigest, MAX_RECORD_LINE } from './records.js';
import { readTar } from './tar.js';
import type { FileTree } from './tree.js';
import type { ForeignFile, ForeignSource, Recorded } from './types.js';

// A UAC output (tclahr/uac): `uac-<hostname>-<os>-<timestamp>.tar.gz` (or .tar, .zip, or the
// folder of `--format none`) holding `[root]/<path on the target>` for every file the `file`
// collector copied, `uac.log` (Hostname, Operating system, Mount point lines), and, with the
// bodyfile artifact, `bodyfile/bodyfile.txt` (TSK body format: MD5|name|inode|mode|uid|gid|size|
// atime|mtime|ctime|crtime). Beside the archive, the acquisition log `<name>.log` records the
// archive's MD5 (and SHA-1). UAC records no per-file hash: tar keeps each file's mtime and mode,
// the bodyfile the other times. References: tclahr/uac lib/create_acquisition_log.sh, uac-docs
// log_files.md and output_file.md; fox-it/dissect.target loaders/uac.py.

const ROOT_SEG = '[root]';

/** The target path of a member under `[root]/` (at any depth: `./[root]/...`, `uac-x/[root]/...`), or undefined. */
export function uacTarget(name: string): string | undefined {
  const segs = name.replace(/^\.?\/+/, '').split('/');
  const i = segs.indexOf(ROOT_SEG);
  if (i < 0 || i > 2) return undefined;
  const rest = segs.slice(i + 1).filter((s) => s !== '' && s !== '.');
  return rest.length === 0 ? undefined : `/${rest.join('/')}`;
}

/** Whether a tree holds a UAC output: a `[root]/` folder near the top. */
export function isUacTree(tree: FileTree): boolean {
  return tree.entries.some((e) => uacTarget(e.name) !== undefined);
}

interface UacLog {
  host?: string;
  os?: string;
  mountPoint?: string;
  started?: string;
}

/** The facts uac.log (or an acquisition log) states, by line prefix. */
export function parseUacLog(text: string, into: UacLog = {}): UacLog {
  for (const line of text.split(/\r?\n/).slice(0, 400)) {
    const m = /(?:INF\s+)?(Hostname|Operating [Ss]ystem|Mount [Pp]oint|Acquisition [Ss]tarted(?: at)?):\s*(.*?)\s*$/.exec(line);
    if (!m || m[2] === '') continue;
    const key = m[1].toLowerCase();
    if (key === 'hostname') into.host ??= m[2];
    else if (key.startsWith('operating')) into.os ??= m[2].toLowerCase();
    else if (key.startsWith('mount')) into.mountPoint ??= m[2];
    else into.started ??= isoTime(m[2]);
  }
  return into;
}

/** The archive hashes an acquisition log records (`md5 checksum: ...`, or the older "[Output File MD5 Computed Hash]" section). */
export function acquisitionHashes(text: string): { md5?: string; sha1?: string; sha256?: string } {
  const out: { md5?: string; sha1?: string; sha256?: string } = {};
  for (const [alg, len] of [['md5', 32], ['sha1', 40], ['sha256', 64]] as const) {
    const m = new RegExp(`${alg}\\s*checksum:\\s*([0-9a-fA-F]{${len}})\\b`, 'i').exec(text);
    if (m) out[alg] = m[1].toLowerCase();
  }
  const old = /Output File MD5 Computed Hash\]\s*\r?\n\s*([0-9a-fA-F]{32})\b/.exec(text);
  if (old && !out.md5) out.md5 = old[1].toLowerCase();
  return out;
}

/** One bodyfile line: the name (which may hold `|`) between the MD5 and the nine fixed fields. */
export function bodyfileLine(line: string): { name: string; recorded: Recorded } | undefined {
  const f = line.split('|');
  if (f.length < 11) return undefined;
  const tail = f.slice(-9);
  const name = f.slice(1, f.length - 9).join('|');
  if (!name.startsWith('/')) return undefined;
  const r: Recorded = {};
  const md5 = hexDigest(f[0], 32);
  if (md5 && md5 !== '00000000000000000000000000000000') r.md5 = md5;
  const size = Number(tail[4]);
  if (Number.isSafeInteger(size) && size >= 0) r.size = size;
  const times: [keyof Recorded, string][] = [['atime', tail[5]], ['mtime', tail[6]], ['ctime', tail[7]], ['birthtime', tail[8]]];
  for (const [k, v] of times) {
    const t = isoTime(v);
    if (t) (r as Record<string, string>)[k] = t;
  }
  return { name, recorded: r };
}

const layoutOfOs = (os: string | undefined): Layout => (os === 'macos' || os === 'darwin' ? 'darwin' : 'linux');

/** The acquisition log beside an archive (`x.tar.gz` → `x.log`), if there is one. */
async function siblingLog(file: string): Promise<string | undefined> {
  const base = file.replace(/\.(tar\.gz|tgz|tar|zip)$/i, '');
  if (base === file) return undefined;
  return readFile(`${base}.log`, 'utf8').catch(() => undefined);
}

/** State shared by the tree and the stream readers of a UAC output. */
class UacState {
  log: UacLog = {};
  body = new Map<string, Recorded>();
  archive: { md5?: string; sha1?: string; sha256?: string } = {};
  computed: { md5?: string; sha1?: string; sha256?: string } = {};
  notes: string[] = [];

  async readBodyfile(source: AsyncIterable<Buffer>, name: string): Promise<void> {
    let bad = 0;
    for await (const { text } of streamLines(source, MAX_RECORD_LINE)) {
      const b = text === null ? undefined : bodyfileLine(text);
      if (b) this.body.set(b.name, { ...b.recorded, from: [name] });
      else if (text !== '') bad++;
    }
    if (bad > 0) this.notes.push(`uac: ${name}: ${bad} lines are not bodyfile lines`);
  }

  untrusted(label: string): string | undefined {
    for (const alg of ['sha256', 'sha1', 'md5'] as const) {
      const want = this.archive[alg];
      const got = this.computed[alg];
      if (want && got && want !== got) return `the archive ${path.basename(label)} has ${alg} ${got}, but its acquisition log records ${want}: the archive changed after UAC wrote it`;
    }
    return undefined;
  }

  source(label: string, files: () => AsyncIterable<ForeignFile>, close: () => Promise<void>): ForeignSource {
    // A tar holds uac.log after the files: host, OS and details are read once the files went by.
    const fromName = /^uac-(.+?)-([a-z]+)-\d{8,}/.exec(path.basename(label));
    const st = this;
    let noted = false;
    return {
      collector: 'uac',
      label,
      get host() {
        const host = st.log.host ?? fromName?.[1] ?? path.basename(label);
        if (!st.log.host && !noted) {
          noted = true;
          st.notes.push(`uac: no Hostname line in uac.log; the host is "${host}", from the output's name`);
        }
        return host;
      },
      get layout() {
        return layoutOfOs(st.log.os ?? fromName?.[2]);
      },
      hashes: ['md5'],
      get started() {
        return st.log.started;
      },
      notes: this.notes,
      get details() {
        return { os: st.log.os ?? fromName?.[2] ?? null, mount_point: st.log.mountPoint ?? null, archive_hashes: st.archive, archive_checked: st.computed };
      },
      files,
      recordedFor: (f) => {
        const b = this.body.get(f.target);
        return b ? { ...f.recorded, ...b, from: [...(f.recorded.from ?? []), ...(b.from ?? [])] } : f.recorded;
      },
      untrusted: () => this.untrusted(label),
      mountPoint: () => this.log.mountPoint,
      close,
    };
  }
}

/** Open a UAC folder or zip (a tree) for import. */
export async function openUacTree(tree: FileTree, label: string, archive?: string): Promise<ForeignSource> {
  const st = new UacState();
  st.notes.push(...tree.problems);
  for (const e of tree.entries) {
    const base = e.name.split('/').pop();
    if (base === 'uac.log' && e.name.split('/').length <= 2) parseUacLog(await tree.readText(e.name, 64 * 1024 * 1024).catch(() => ''), st.log);
    if (/(^|\/)bodyfile\/bodyfile\.txt$/.test(e.name)) await st.readBodyfile(tree.open(e.name), e.name);
  }
  if (archive) {
    const log = await siblingLog(archive);
    if (log) {
      st.archive = acquisitionHashes(log);
      parseUacLog(log, st.log);
      st.computed = await hashFile(archive, st.archive);
    }
  }
  const files = async function* (): AsyncGenerator<ForeignFile> {
    for (const e of tree.entries) {
      const target = uacTarget(e.name);
      if (!target || (e.kind !== 'file' && e.kind !== 'symlink')) continue;
      const mtime = e.mtimeMs ? isoFromMs(e.mtimeMs) : undefined;
      yield { target, member: e.name, kind: e.kind, size: e.size, linkTarget: e.linkTarget, recorded: mtime ? { mtime } : {}, open: () => tree.open(e.name) };
    }
  };
  return st.source(label, files, async () => tree.close());
}

async function hashFile(file: string, want: { md5?: string; sha1?: string; sha256?: string }): Promise<{ md5?: string; sha1?: string; sha256?: string }> {
  const algs = (['md5', 'sha1', 'sha256'] as const).filter((a) => want[a]);
  const hs = algs.map((a) => createHash(a));
  for await (const c of createReadStream(file)) for (const h of hs) h.update(c as Buffer);
  return Object.fromEntries(algs.map((a, i) => [a, hs[i].digest('hex')]));
}

/** Open a UAC `.tar.gz` or `.tar` for import: one pass, the archive hashed as it is read. */
export async function openUacTar(file: string, label: string): Promise<ForeignSource> {
  const st = new UacState();
  const log = await siblingLog(file);
  if (log) {
    st.archive = acquisitionHashes(log);
    parseUacLog(log, st.log);
  } else st.notes.push(`uac: no acquisition log (${path.basename(file).replace(/\.(tar\.gz|tgz|tar)$/i, '')}.log) beside the archive: its hash is not checked`);
  const gz = /\.(gz|tgz)$/i.test(file);
  const files = async function* (): AsyncGenerator<ForeignFile> {
    const hs = (['md5', 'sha1', 'sha256'] as const).filter((a) => st.archive[a]).map((a) => [a, createHash(a)] as const);
    const raw = createReadStream(file);
    raw.on('data', (c) => {
      for (const [, h] of hs) h.update(c as Buffer);
    });
    const bytes = gz ? raw.pipe(createGunzip()) : raw;
    raw.on('error', (e) => bytes.destroy(e));
    let hardlinks = 0;
    for await (const e of readTar(bytes as AsyncIterable<Buffer>)) {
      const base = e.name.split('/').pop();
      if (base === 'uac.log' && e.type === 'file' && e.name.split('/').length <= 2) {
        const parts: Buffer[] = [];
        let n = 0;
        for await (const c of e.body()) {
          n += c.length;
          if (n <= 64 * 1024 * 1024) parts.push(Buffer.from(c));
        }
        parseUacLog(Buffer.concat(parts).toString('utf8'), st.log);
        continue;
      }
      if (/(^|\/)bodyfile\/bodyfile\.txt$/.test(e.name) && e.type === 'file') {
        await st.readBodyfile(e.body(), e.name);
        continue;
      }
      const target = uacTarget(e.name);
      if (!target) continue;
      if (e.type === 'hardlink') hardlinks++;
      if (e.type !== 'file' && e.type !== 'symlink') continue;
      const recorded: Recorded = { mtime: e.mtimeMs ? isoFromMs(e.mtimeMs) : undefined, mode: e.mode.toString(8).padStart(4, '0'), from: [`tar header at byte ${e.offset}`] };
      if (e.atimeMs) recorded.atime = isoFromMs(e.atimeMs);
      if (e.ctimeMs) recorded.ctime = isoFromMs(e.ctimeMs);
      yield { target, member: e.name, kind: e.type, size: e.size, linkTarget: e.linkName, recorded, open: () => e.body() };
    }
    // The archive's tail (the zero blocks after the end marker) is hashed too: read to the end.
    for await (const _ of bytes);
    if (!raw.closed) await once(raw, 'close');
    for (const [a, h] of hs) st.computed[a] = h.digest('hex');
    if (hardlinks > 0) st.notes.push(`uac: ${hardlinks} hard links in the archive under [root]/ were not imported (their content is another member's)`);
  };
  return st.source(label, files, async () => {});
}
