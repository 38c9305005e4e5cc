import yauzl from 'yauzl';

/**
 * Member names whose compressed data overlaps another member's in the zip: the overlapping-entry
 * bomb (many central entries pointing at one local entry, each inflating in full). The central
 * directory is read once more with yauzl, without inflating anything; names are decoded the way
 * the collector's reader decodes them.
 */
export async function overlappingMembers(path: string): Promise<Set<string>> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) => yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false }, (e, z) => (e ? rej(e) : res(z))));
  const spans: { name: string; start: number; end: number }[] = [];
  try {
    await new Promise<void>((res, rej) => {
      zip.on('entry', (e: yauzl.Entry) => {
        const name = yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, e.fileName as unknown as Buffer, e.extraFields, true);
        if (!name.endsWith('/')) spans.push({ name, start: e.relativeOffsetOfLocalHeader, end: e.relativeOffsetOfLocalHeader + 30 + e.compressedSize });
        zip.readEntry();
      });
      zip.once('end', () => res());
      zip.once('error', rej);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  spans.sort((a, b) => a.start - b.start);
  const out = new Set<string>();
  let reach = -1;
  let owner: string | null = null;
  for (const s of spans) {
    if (s.start < reach) {
      out.add(s.name);
      if (owner) out.add(owner);
    }
    if (s.end > reach) {
      reach = s.end;
      owner = s.name;
    }
  }
  return out;
}
