import path from 'node:path';
import type { Layout } from '../homes.js';
import { isoFromMs, isoTime, pathKey, percentDecode, targetPath } from './paths.js';
import { count, hexDigest, jsonRecords, pick, pickText, type Rec } from './records.js';
import type { FileTree, TreeEntry } from './tree.js';
import type { ForeignFile, ForeignSource, Recorded } from './types.js';

// A Velociraptor collection (the offline collector's zip, a collection exported from the GUI, or
// either unpacked): `uploads/<accessor>/<components...>` with every component escaped
// (utils.SanitizeStringForZip: `%2E` for a leading dot, `%3A`, `%5C`, `%25`, ...; older writers
// also hex-escape UTF-8), `uploads.json` (one row per upload: vfs_path, _Components, file_size,
// uploaded_size) and `results/<Artifact>%2F<Source>.json` (the artifact's rows: the upload's
// sha256 and md5, and the file's times, as Generic.Collectors.File and the KapeFiles targets
// record them). References: Velocidex/velociraptor reporting/container.go and utils/sanitize.go;
// fox-it/dissect.target loaders/velociraptor.py.

/** Accessors whose uploads are files of a file system; others (data, sparse, vfs...) are not. */
const FILE_ACCESSORS = new Set(['auto', 'file', 'ntfs', 'lazy_ntfs', 'mft', 'raw_ntfs', 'ntfs_vss']);
/**
 * Top folders of a Unix file system: offline collectors before about 0.6.7 stored Unix uploads
 * as `uploads/<path>`, without the accessor folder (dissect.target's loader notes the change).
 */
const UNIX_TOPS = new Set(['home', 'root', 'users', 'etc', 'var', 'tmp', 'opt', 'srv', 'private', 'usr', 'library', 'applications', 'mnt', 'media']);
/** Files naming the collection beside `uploads/`. */
export const VELOCIRAPTOR_MARKERS = ['uploads.json', 'client_info.json', 'collection_context.json', 'log.json'];

/** Whether a tree holds a Velociraptor collection at `prefix` (`uploads/` and a marker or `results/`). */
export function isVelociraptor(tree: FileTree, prefix: string): boolean {
  const names = new Set(tree.entries.map((e) => e.name.toLowerCase()));
  const has = (n: string) => names.has(`${prefix}${n}`.toLowerCase());
  const uploads = tree.entries.some((e) => e.name.startsWith(`${prefix}uploads/`));
  return uploads && (VELOCIRAPTOR_MARKERS.some(has) || tree.entries.some((e) => e.name.startsWith(`${prefix}results/`)));
}

/** A volume component decoded (`C:`, `\\.\C:`): its drive letter, `vss` for a shadow copy, or undefined for none. */
function volumeOf(seg: string): string | undefined {
  const m = /^(?:\\\\[.?]\\)?([A-Za-z]):$/.exec(seg);
  if (m) return m[1].toUpperCase();
  if (/HarddiskVolumeShadowCopy/i.test(seg)) return 'vss';
  if (/^\\\\[.?]\\/.test(seg)) return 'device';
  return undefined;
}

interface Upload {
  entry: TreeEntry;
  accessor: string;
  target: string;
}

/** Open a Velociraptor collection in `tree` at `prefix` for import. */
export async function openVelociraptor(tree: FileTree, prefix: string, label: string): Promise<ForeignSource> {
  const notes: string[] = [...tree.problems];
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  const uploads: Upload[] = [];
  let drives = 0;
  // The server's file store (clients/C.../collections/F.../uploads) appends "_" to names ending in "_" or ".db".
  const filestore = /(^|\/)clients\/C\.[^/]+\/collections\/F\.[^/]+\/$/.test(prefix);
  const idx = new Set(tree.entries.filter((e) => e.name.endsWith('.idx')).map((e) => e.name.slice(0, -4)));
  for (const entry of tree.entries) {
    if (entry.kind !== 'file' || !entry.name.startsWith(`${prefix}uploads/`)) continue;
    const segs = entry.name.slice(prefix.length + 'uploads/'.length).split('/');
    if (entry.name.endsWith('.idx') && idx.has(entry.name.slice(0, -4))) continue;
    const noAccessor = !FILE_ACCESSORS.has(segs[0].toLowerCase()) && UNIX_TOPS.has(segs[0].toLowerCase());
    const accessor = noAccessor ? 'file' : segs.shift()!.toLowerCase();
    if (!FILE_ACCESSORS.has(accessor)) {
      skip(`accessor "${accessor}" (not a file system)`);
      continue;
    }
    if (idx.has(entry.name)) {
      skip('sparse uploads (stored without their holes, with an .idx map)');
      continue;
    }
    const names = segs.map((s) => {
      const d = percentDecode(s);
      return filestore && d.endsWith('_') ? d.slice(0, -1) : d;
    });
    const volume = volumeOf(names[0] ?? '');
    if (volume === 'vss' || volume === 'device') {
      skip(volume === 'vss' ? 'volume shadow copies (import the live volume)' : `device "${names[0]}" (not a drive)`);
      continue;
    }
    const rest = volume ? names.slice(1) : names;
    const target = targetPath(volume ? `${volume}:/${rest.join('/')}` : `/${rest.join('/')}`);
    if (!target || rest.length === 0) {
      skip('uploads without a file path');
      continue;
    }
    if (volume) drives++;
    uploads.push({ entry, accessor, target });
  }
  for (const [why, n] of skipped) notes.push(`velociraptor: ${n} ${n === 1 ? 'upload' : 'uploads'} of ${why} not imported`);
  const info = await readJson(tree, `${prefix}client_info.json`);
  const context = await readJson(tree, `${prefix}collection_context.json`);
  const os = (pickText(info, 'OS', 'os', 'System', 'Platform') ?? '').toLowerCase();
  const layout: Layout = os.includes('windows') || drives > 0 ? 'win32' : os.includes('darwin') || os.includes('mac') ? 'darwin' : detectUnix(uploads);
  const nocase = layout !== 'linux';
  const fromName = /Collection-(.+?)-\d{4}-\d\d-\d\dT/.exec(path.basename(label))?.[1];
  const host = pickText(info, 'Hostname', 'hostname', 'Fqdn', 'fqdn') ?? fromName ?? path.basename(label).replace(/\.zip$/i, '');
  if (!pickText(info, 'Hostname', 'hostname', 'Fqdn', 'fqdn')) notes.push(`velociraptor: no client_info.json host name; the host is "${host}", from the collection's name`);
  const micros = (v: unknown) => (typeof v === 'number' && v > 0 ? isoFromMs(v > 1e14 ? v / 1000 : v > 1e11 ? v : v * 1000) : undefined);
  // Multiple accessors may hold the same file (auto and ntfs): the first one is imported.
  const seen = new Map<string, Upload>();
  for (const u of uploads) {
    const k = pathKey(u.target, nocase);
    if (seen.has(k)) notes.push(`velociraptor: ${u.entry.name} is the same file as ${seen.get(k)!.entry.name} (another accessor); imported once`);
    else seen.set(k, u);
  }
  const byStored = new Map<string, Recorded>();
  const byPath = new Map<string, Recorded>();
  await readUploadsJson(tree, prefix, nocase, byStored, byPath, notes);
  await readResults(tree, prefix, nocase, byStored, byPath, notes);
  const file = (u: Upload): ForeignFile => ({
    target: u.target,
    member: u.entry.name,
    kind: 'file',
    size: u.entry.size,
    recorded: {},
    open: () => tree.open(u.entry.name),
  });
  return {
    collector: 'velociraptor',
    label,
    host,
    layout,
    hashes: ['sha256', 'md5'],
    started: micros(pick(context, 'start_time', 'create_time')),
    ended: micros(pick(context, 'active_time')),
    notes,
    details: {
      client_id: pick(info, 'ClientId', 'client_id') ?? pick(context, 'client_id') ?? null,
      flow_id: pick(context, 'session_id') ?? null,
      artifacts: pick(context, 'artifacts_with_results', 'request.artifacts') ?? null,
      os: os || null,
    },
    async *files() {
      for (const u of seen.values()) yield file(u);
    },
    recordedFor(f) {
      const stored = f.member.slice(prefix.length);
      const a = byStored.get(stored) ?? {};
      const b = byPath.get(pathKey(f.target, nocase)) ?? {};
      return { ...b, ...a, from: [...(b.from ?? []), ...(a.from ?? [])] };
    },
    untrusted: () => undefined,
    close: async () => tree.close(),
  };
}

/** A Unix collection is macOS when a home sits under Users/. */
function detectUnix(uploads: Upload[]): Layout {
  return uploads.some((u) => u.target.startsWith('/Users/')) && !uploads.some((u) => u.target.startsWith('/home/')) ? 'darwin' : 'linux';
}

async function readJson(tree: FileTree, name: string): Promise<Rec | undefined> {
  const e = tree.entries.find((x) => x.name === name);
  if (!e) return undefined;
  try {
    const v = JSON.parse(await tree.readText(name, 16 * 1024 * 1024)) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
  } catch {
    return undefined;
  }
}

function merge(map: Map<string, Recorded>, key: string, r: Recorded): void {
  const prior = map.get(key);
  map.set(key, prior ? { ...prior, ...r, from: [...(prior.from ?? []), ...(r.from ?? [])] } : r);
}

async function readUploadsJson(tree: FileTree, prefix: string, nocase: boolean, byStored: Map<string, Recorded>, byPath: Map<string, Recorded>, notes: string[]): Promise<void> {
  const name = `${prefix}uploads.json`;
  if (!tree.entries.some((e) => e.name === name)) return;
  const counts = { bad: 0 };
  for await (const { rec, line } of jsonRecords(tree.open(name), undefined, counts)) {
    const size = count(pick(rec, 'file_size', 'Size'));
    const stored = count(pick(rec, 'uploaded_size', 'StoredSize'));
    const r: Recorded = { ...(size !== undefined ? { size } : {}), from: [`uploads.json line ${line}`] };
    if (size !== undefined && stored !== undefined && stored < size) notes.push(`velociraptor: uploads.json line ${line}: ${pickText(rec, 'vfs_path')} was uploaded ${stored} of ${size} bytes`);
    const comps = pick(rec, '_Components', 'Components');
    if (Array.isArray(comps) && comps.every((c) => typeof c === 'string')) {
      // The store path's own components, unescaped: the member name is their escaped form.
      const parts = (comps as string[])[0] === 'uploads' ? (comps as string[]).slice(1) : (comps as string[]);
      merge(byStored, `uploads/${parts.map(zipEscape).join('/')}`, r);
    }
    const p = targetPath(pickText(rec, 'vfs_path', 'Path') ?? '');
    if (p) merge(byPath, pathKey(p, nocase), r);
  }
  if (counts.bad > 0) notes.push(`velociraptor: uploads.json has ${counts.bad} lines that are not upload rows`);
}

/** Velociraptor's escaping of one zip path component (utils.SanitizeStringForZip), to match uploads.json rows to members. */
export function zipEscape(c: string): string {
  let out = '';
  const chars = [...c];
  chars.forEach((ch, i) => {
    const edge = (i === 0 && (ch === '.' || ch === ' ')) || (i === chars.length - 1 && (ch === '.' || ch === ' '));
    out += edge || '?"*:|<>%/\\'.includes(ch) ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : ch;
  });
  return out;
}

const RESULT_LINE = /sha256|md5|Modified|Mtime|SourceFile|Upload/i;

async function readResults(tree: FileTree, prefix: string, nocase: boolean, byStored: Map<string, Recorded>, byPath: Map<string, Recorded>, notes: string[]): Promise<void> {
  for (const e of tree.entries) {
    if (!e.name.startsWith(`${prefix}results/`) || !/\.json$/i.test(e.name)) continue;
    const where = e.name.slice(prefix.length);
    let rows = 0;
    try {
      for await (const { rec, line } of jsonRecords(tree.open(e.name), RESULT_LINE)) {
        const r = resultRecord(rec, `${where} line ${line}`);
        if (!r) continue;
        rows++;
        const stored = pick(rec, 'Upload.StoredName', 'StoredName');
        if (typeof stored === 'string' && stored !== '') merge(byStored, stored.replace(/^\/+/, ''), r.recorded);
        if (r.target) merge(byPath, pathKey(r.target, nocase), r.recorded);
      }
    } catch (err) {
      notes.push(`velociraptor: ${where} could not be read whole (${(err as Error).message}); its rows so far are used`);
    }
    if (rows > 0) notes.push(`velociraptor: ${where}: ${rows} rows with the hashes or times of uploaded files`);
  }
}

/** The hashes and times one result row records of a file, or null when it names no file. */
function resultRecord(rec: Rec, from: string): { target?: string; recorded: Recorded } | null {
  const p = pick(rec, 'SourceFile', 'OSPath', 'FullPath', 'Upload.Path', 'Source', 'Path');
  const target = typeof p === 'string' ? targetPath(p) : undefined;
  const stored = pick(rec, 'Upload.StoredName', 'StoredName');
  if (!target && typeof stored !== 'string') return null;
  const r: Recorded = {};
  const sha256 = hexDigest(pick(rec, 'SourceFileSha256', 'Upload.sha256', 'Sha256', 'Hash.SHA256', 'Hashes.SHA256'), 64);
  const md5 = hexDigest(pick(rec, 'Upload.md5', 'SourceFileMd5', 'Md5', 'Hash.MD5', 'Hashes.MD5'), 32);
  const sha1 = hexDigest(pick(rec, 'SourceFileSha1', 'Sha1', 'Hash.SHA1', 'Hashes.SHA1'), 40);
  const size = count(pick(rec, 'Size', 'FileSize', 'Upload.Size'));
  const times: [keyof Recorded, unknown][] = [
    ['mtime', pick(rec, 'Modified', 'Mtime', 'LastModified')],
    ['atime', pick(rec, 'LastAccessed', 'Atime', 'Accessed')],
    ['ctime', pick(rec, 'Changed', 'Ctime')],
    ['birthtime', pick(rec, 'Created', 'Btime', 'Birth')],
  ];
  if (sha256) r.sha256 = sha256;
  if (md5) r.md5 = md5;
  if (sha1) r.sha1 = sha1;
  if (size !== undefined) r.size = size;
  for (const [k, v] of times) {
    const t = isoTime(v);
    if (t) (r as Record<string, string>)[k] = t;
  }
  if (Object.keys(r).length === 0) return null;
  r.from = [from];
  return { target, recorded: r };
}
