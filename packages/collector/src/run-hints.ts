import type { Catalog, ProjectHint } from './catalog.js';
import { compileGlobs, type Matcher } from './globs.js';
import { type HintRead, hintLineScan, scansLines } from './project-hints.js';

/** A collected file that names project roots (a catalog `project_hints` entry matched it). */
export interface HintFile {
  hint: ProjectHint;
  fsPath: Buffer;
  user: string;
  home: string;
  catalog: Catalog;
  /** What a jsonl or text hint found in the bytes the collector read (then the file is not read again). */
  read?: HintRead;
}

/** A hint file met by the walk, before its read: the line scans to feed with its bytes. */
export interface PendingHints {
  /** Feed the bytes read, in order (undefined when no hint of the file scans lines). */
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
    return {
      // One read feeds every line hint of the file: no second pass over a 100 MB event log.
      ...(scans.length > 0
        ? {
            observe: (chunk: Buffer) => {
              for (const s of scans) s.push(chunk);
            },
          }
        : {}),
      files: (clean) => hits.map((h) => ({ ...at, hint: h.hint, catalog: h.catalog, ...(clean && h.scan ? { read: h.scan.result() } : {}) })),
    };
  }
}
