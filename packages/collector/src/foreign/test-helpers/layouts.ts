import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import yazl from 'yazl';
import { zipEscape } from '../velociraptor.js';

// Builders of foreign collections from a fixture home, with the encodings each collector uses:
// Velociraptor's escaped zip names and its uploads.json/results rows, KAPE's drive-letter tree and
// CopyLog, UAC's [root]/ tree, bodyfile, uac.log and acquisition log (tar.gz made by tar, as UAC does).

/** Every file of a folder, `/`-separated relative names, sorted. */
export function filesOf(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesOf(dir, r));
    else if (e.isFile() && r !== 'README.md') out.push(r);
  }
  return out;
}

const hash = (alg: string, b: Buffer) => createHash(alg).update(b).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

/** One file of the home as a collector saw it. */
interface Item {
  rel: string;
  bytes: Buffer;
  mtimeMs: number;
}

function items(home: string, tamper?: string): Item[] {
  return filesOf(home).map((rel) => {
    const bytes = readFileSync(path.join(home, rel));
    return { rel, bytes: rel === tamper ? Buffer.concat([bytes, Buffer.from('tampered\n')]) : bytes, mtimeMs: Math.floor(statSync(path.join(home, rel)).mtimeMs) };
  });
}

/**
 * A Velociraptor offline-collector zip of `home` as `C:\Users\<user>` (accessor `auto`) or, with
 * `ntfs`, under the raw device `\\.\C:`; with `tamper`, that member's bytes differ from the sha256
 * its result row records.
 */
export async function velociraptorZip(home: string, user: string, out: string, o: { accessor?: 'auto' | 'ntfs'; tamper?: string } = {}): Promise<void> {
  const zip = new yazl.ZipFile();
  const accessor = o.accessor ?? 'auto';
  const volume = accessor === 'ntfs' ? '\\\\.\\C:' : 'C:';
  const uploads: string[] = [];
  const results: string[] = [];
  for (const [i, it] of items(home).entries()) {
    const comps = [accessor, volume, 'Users', user, ...it.rel.split('/')];
    const stored = `uploads/${comps.map(zipEscape).join('/')}`;
    const bytes = o.tamper === it.rel ? Buffer.concat([it.bytes, Buffer.from('x')]) : it.bytes;
    zip.addBuffer(bytes, stored, { mtime: new Date(it.mtimeMs) });
    const vfs = `${volume}\\Users\\${user}\\${it.rel.replace(/\//g, '\\')}`;
    uploads.push(JSON.stringify({ Timestamp: `2026-12-01T04:30:${String(i % 60).padStart(2, '0')}Z`, started: '2026-12-01 04:30:00 +0000 UTC', vfs_path: vfs, _Components: comps, file_size: it.bytes.length, uploaded_size: it.bytes.length, Type: '' }));
    results.push(
      JSON.stringify({
        SourceFile: `C:\\Users\\${user}\\${it.rel.replace(/\//g, '\\')}`,
        Size: it.bytes.length,
        Created: iso(it.mtimeMs - 60_000),
        Modified: iso(it.mtimeMs),
        LastAccessed: iso(it.mtimeMs + 1000),
        Changed: iso(it.mtimeMs),
        Upload: { Path: vfs, Size: it.bytes.length, StoredSize: it.bytes.length, sha256: hash('sha256', it.bytes), md5: hash('md5', it.bytes), StoredName: `/${stored}`, Components: comps },
      }),
    );
  }
  zip.addBuffer(Buffer.from(`${uploads.join('\n')}\n`), 'uploads.json');
  zip.addBuffer(Buffer.from(`${results.join('\n')}\n`), 'results/Windows.KapeFiles.Targets%2FAll File Metadata.json');
  zip.addBuffer(Buffer.from(JSON.stringify({ ClientId: 'C.1234567890abcdef', Hostname: 'SEEDHOST', Fqdn: 'seedhost.example', OS: 'windows', Platform: 'Microsoft Windows 11 Pro' })), 'client_info.json');
  zip.addBuffer(Buffer.from(JSON.stringify({ session_id: 'F.CT9SEEDFLOW', start_time: 1796099400000000, active_time: 1796099460000000, artifacts_with_results: ['Windows.KapeFiles.Targets/All File Metadata'] })), 'collection_context.json');
  zip.addBuffer(Buffer.from('{"level":"INFO","message":"Starting collection"}\n'), 'log.json');
  const ws = createWriteStream(out);
  zip.outputStream.pipe(ws);
  zip.end();
  await once(ws, 'close');
}

/**
 * A Velociraptor collection of `home` as `/home/<user>` on Linux (accessor `file`), unpacked into
 * a folder; `old`: as offline collectors before 0.6.7 stored it, with no accessor folder.
 */
export function velociraptorLinuxFolder(home: string, user: string, out: string, o: { old?: boolean } = {}): void {
  const uploads: string[] = [];
  for (const it of items(home)) {
    const comps = [...(o.old ? [] : ['file']), 'home', user, ...it.rel.split('/')];
    const dst = path.join(out, 'uploads', ...comps.map(zipEscape));
    mkdirSync(path.dirname(dst), { recursive: true });
    writeFileSync(dst, it.bytes);
    uploads.push(JSON.stringify({ vfs_path: `/home/${user}/${it.rel}`, _Components: comps, file_size: it.bytes.length, uploaded_size: it.bytes.length }));
  }
  writeFileSync(path.join(out, 'uploads.json'), `${uploads.join('\n')}\n`);
  writeFileSync(path.join(out, 'client_info.json'), JSON.stringify({ Hostname: 'seedlinux', OS: 'linux' }));
}

/** KAPE's `--tdest` folder for `home` as `C:\Users\<user>`, with its CopyLog (the SHA-1, size and UTC times of each file). */
export function kapeFolder(home: string, user: string, tdest: string, o: { tamper?: string } = {}): void {
  const head = 'CopiedTimestamp,SourceFile,DestinationFile,FileSize,SourceFileSha1,DeferredCopy,CreatedOnUtc,ModifiedOnUtc,LastAccessedOnUtc,CopyDuration';
  const lines = [head];
  // KAPE writes .NET's "yyyy-MM-dd HH:mm:ss.fffffff" without a zone: UTC.
  const kt = (ms: number) => `${iso(ms).replace('T', ' ').replace('Z', '')}0000`;
  for (const it of items(home, o.tamper)) {
    const dst = path.join(tdest, 'C', 'Users', user, ...it.rel.split('/'));
    mkdirSync(path.dirname(dst), { recursive: true });
    writeFileSync(dst, it.bytes);
    const original = it.rel === o.tamper ? readFileSync(path.join(home, it.rel)) : it.bytes;
    const src = `C:\\Users\\${user}\\${it.rel.replace(/\//g, '\\')}`;
    const q = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    lines.push([kt(1796099400000), q(src), q(`D:\\kape\\tout\\C\\Users\\${user}\\${it.rel.replace(/\//g, '\\')}`), original.length, hash('sha1', original).toUpperCase(), 'False', kt(it.mtimeMs - 60_000), kt(it.mtimeMs), kt(it.mtimeMs + 1000), '0.0012345'].join(','));
  }
  writeFileSync(path.join(tdest, '2026-12-01T043000_CopyLog.csv'), `${lines.join('\r\n')}\r\n`);
}

/**
 * UAC's output for `home` as `/home/<user>`: `[root]/...`, `uac.log`, `bodyfile/bodyfile.txt`,
 * packed by tar and gzip into `<dir>/uac-seedhost-linux-20261201043000.tar.gz`, with the
 * acquisition log beside it recording the archive's MD5 (`corrupt`: a wrong one). Returns the archive.
 */
export function uacTarGz(home: string, user: string, dir: string, o: { corrupt?: boolean } = {}): string {
  const name = 'uac-seedhost-linux-20261201043000';
  const work = path.join(dir, `${name}.d`);
  const body: string[] = [];
  for (const it of items(home)) {
    const dst = path.join(work, '[root]', 'home', user, ...it.rel.split('/'));
    mkdirSync(path.dirname(dst), { recursive: true });
    writeFileSync(dst, it.bytes);
    const s = Math.floor(it.mtimeMs / 1000);
    body.push(['0', `/home/${user}/${it.rel}`, '1234', '-rw-r--r--', '1000', '1000', String(it.bytes.length), String(s + 1), String(s), String(s), '0'].join('|'));
  }
  mkdirSync(path.join(work, 'bodyfile'), { recursive: true });
  writeFileSync(path.join(work, 'bodyfile', 'bodyfile.txt'), `${body.join('\n')}\n`);
  writeFileSync(path.join(work, 'uac.log'), ['2026-12-01 04:30:00 +0000 INF UAC (Unix-like Artifacts Collector) 3.1.0', '2026-12-01 04:30:00 +0000 INF Operating system: linux', '2026-12-01 04:30:00 +0000 INF Hostname: seedhost', '2026-12-01 04:30:00 +0000 INF Mount point: /', ''].join('\n'));
  const out = path.join(dir, `${name}.tar.gz`);
  execFileSync('tar', ['-C', work, '-czf', out, '[root]', 'bodyfile', 'uac.log']);
  const md5 = o.corrupt ? '0'.repeat(32) : hash('md5', readFileSync(out));
  writeFileSync(path.join(dir, `${name}.log`), ['Created by UAC (Unix-like Artifacts Collector) 3.1.0', '', '[Case Information]', 'Case Number: ', '', '[Computed Hashes]', `MD5 checksum: ${md5}`, ''].join('\n'));
  return out;
}
