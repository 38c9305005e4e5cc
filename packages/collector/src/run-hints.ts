import type { Catalog, ProjectHint } from './catalog.js';
import { compileGlobs, type Matcher } from './globs.js';
import { docHintBound, type HintRead, hintLineScan, hintText, scansLines } from './project-hints.js';

/** A collected file that names project roots (a catalog `project_hints` entry matched it). */
export interface HintFile {
  hint: ProjectHint;
  fsPath: Buffer;
  user: string;
  home: string;
  catalog: Catalog;
  /** What the hint found in the bytes the collector read (then the file is not read again). */
  read?: HintRead;
}

/** A hint file met by the walk, before its read: the line scans to feed with its bytes. */
export interface PendingHints {
  /** Feed the bytes read, in order (undefined when no hint of the file wants them). */
  observe?: (chunk: Buffer) => void;
  /** The hint files, with what their scans found when `clean` (the whole file read, unchanged). */
  files(clean: boolean): HintFile[];
}

/** Finds the project hints a home file answers to, once per catalog and case rule. */
export class HintMatchers {
  private readonly matchers = new Map<string, { hint: ProjectHint; match: Matcher }[]>();

  constructor(
    private readonly catalogs: Catalog[],
    /** The home as the target recorded it (hints such as `$USER_HOME$/x` resolve against it). */
    private readonly targetHome: (home: string) => string,
  ) {}

  /** The hints of the claiming agents' catalogs whose files match `rel`, with their scans started. */
  begin(agents: string[], rel: string, nocase: boolean, at: Omit<HintFile, 'hint' | 'catalog' | 'read'>): PendingHints | undefined {
    const hits: { hint: ProjectHint; catalog: Catalog; scan?: ReturnType<typeof hintLineScan> }[] = [];
    for (const agent of agents) {
      const catalog = this.catalogs.find((c) => c.agent === agent);
      if (!catalog || catalog.project_hints.length === 0) continue;
      const k = `${catalog.agent}|${nocase}`;
      let ms = this.matchers.get(k);
      if (!ms) {
        ms = catalog.project_hints.map((hint) => ({ hint, match: compileGlobs(hint.files, nocase) }));
        this.matchers.set(k, ms);
      }
      for (const { hint, match } of ms) {
        if (match(rel)) hits.push({ hint, catalog, ...(scansLines(hint) ? { scan: hintLineScan(hint, this.targetHome(at.home)) } : {}) });
      }
    }
    if (hits.length === 0) return undefined;
    const scans = hits.filter((h) => h.scan).map((h) => h.scan!.scan);
    // A json, yaml, toml or xml hint is parsed from the bytes read too, up to its bound, so its
    // roots are those of the bytes archived and the target's file is read once (each was read
    // again at the end, one after the other: 65 of them in the bench's Copilot home). A file past
    // the bound is read again as before (and said to be too large). Decoded as the chunks come
    // (they are lent, chunk-pool.ts), BOM kept as Buffer.toString keeps it: the same text, in no
    // more memory than the read at the end took.
    const docs = hits.filter((h) => !h.scan);
    const bound = Math.max(0, ...docs.map((h) => docHintBound(h.hint)));
    const decoder = docs.length > 0 ? new TextDecoder('utf-8', { ignoreBOM: true }) : undefined;
    let pieces: string[] | undefined = decoder ? [] : undefined;
    let copied = 0;
    const home = this.targetHome(at.home);
    return {
      // One read feeds every hint of the file: no second pass over a 100 MB event log.
      ...(scans.length > 0 || pieces
        ? {
            observe: (chunk: Buffer) => {
              for (const s of scans) s.push(chunk);
              if (!pieces) return;
              copied += chunk.length;
              if (copied > bound) pieces = undefined;
              else pieces.push(decoder!.decode(chunk, { stream: true }));
            },
          }
        : {}),
      files: (clean) => {
        const text = clean && pieces ? pieces.join('') + decoder!.decode() : undefined;
        pieces = undefined;
        return hits.map((h) => {
          const read = !clean ? undefined : h.scan ? h.scan.result() : text !== undefined && copied <= docHintBound(h.hint) ? hintText(h.hint, text, home) : undefined;
          return { ...at, hint: h.hint, catalog: h.catalog, ...(read ? { read } : {}) };
        });
      },
    };
  }
}
