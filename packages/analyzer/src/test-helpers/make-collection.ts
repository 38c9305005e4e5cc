import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CollectionInfo, ManifestRow } from '@aitrail/collector';

/** A file to put in a hand-made collection. */
export interface FakeFile {
  user?: string;
  agent: string;
  rel: string;
  content: string | Buffer;
  secret?: boolean;
  /** Override what the manifest records (to fake corruption). */
  manifest?: Partial<ManifestRow>;
  /** List in the manifest but do not write the member. */
  omit?: boolean;
}

/** Write an unpacked collection directory (collection.json, manifest.jsonl, homes/...) for tests. */
export function makeCollectionDir(dir: string, files: FakeFile[], opts: { host?: string; extra?: Record<string, string> } = {}): void {
  mkdirSync(dir, { recursive: true });
  const info: CollectionInfo = {
    format: 'aitrail-collection',
    format_version: 1,
    host: opts.host ?? 'testhost',
    os: { platform: 'linux', release: '6.0', arch: 'x64' },
    tool: { name: 'aitrail', version: '0.1.0' },
    catalog: [],
    arguments: [],
    started_utc: '2026-10-02T00:00:00.000Z',
    ended_utc: '2026-10-02T00:00:01.000Z',
    counts: {},
    complete: true,
  };
  writeFileSync(join(dir, 'collection.json'), JSON.stringify(info));
  const rows: ManifestRow[] = files.map((f) => {
    const user = f.user ?? 'sean';
    const buf = Buffer.from(f.content);
    const archive_path = `homes/${user}/${f.rel}`;
    // The member always lands at its proper place; a manifest override only changes what the manifest says.
    if (!f.omit) {
      mkdirSync(dirname(join(dir, archive_path)), { recursive: true });
      writeFileSync(join(dir, archive_path), buf);
    }
    return {
      user,
      home: `/home/${user}`,
      agent: f.agent,
      scope: 'home',
      rel: f.rel,
      source_path: `/home/${user}/${f.rel}`,
      archive_path,
      status: 'collected',
      reason: '',
      secret: !!f.secret,
      kind: 'file',
      size: buf.length,
      bytes_read: buf.length,
      sha256: createHash('sha256').update(buf).digest('hex'),
      mtime: '2026-10-01T10:00:00.000Z',
      atime: '',
      ctime: '',
      birthtime: '',
      mode: '0644',
      ...f.manifest,
    };
  });
  writeFileSync(join(dir, 'manifest.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (const [name, content] of Object.entries(opts.extra ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}
