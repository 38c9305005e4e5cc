/**
 * Selectors of project hints (docs/catalog.md, "project_hints"): where the recorded project
 * paths sit inside a parsed document. Dotted paths for json, yaml, jsonl and toml, with `[]`
 * (every element of an array) and `*` (every value of an object or array); a string that is
 * serialized JSON is decoded on the way (the stringified event log's `data.context`).
 */

/** One step of a dotted selector. */
export interface SelectStep {
  /** The object key to take, or undefined for a step that only fans out (`[]`, `*`). */
  key?: string;
  /** After taking the key: every array element (`[]`), every value (`*`), or the value itself. */
  fan?: 'array' | 'all';
}

/** How many values one selector may produce from one document, before dedup. */
export const SELECT_MAX_VALUES = 100_000;

const STEP = /^(?:([^.[\]*]+)(\[\])?|\[\]|\*)$/;

/** Selectors parsed so far: a catalog has a handful, and a hint file's every line asks again. */
const parsed = new Map<string, SelectStep[] | undefined>();

/** Parse a dotted selector (`folders[].path`, `[].cwd`, `projects.*.root`, `.` the document itself); undefined when malformed. */
export function parseSelector(dotted: string): SelectStep[] | undefined {
  if (parsed.has(dotted)) return parsed.get(dotted);
  const steps = parseSteps(dotted);
  // Bounded: selectors come from catalogs, but a user's catalog could hold any number.
  if (parsed.size < 1024) parsed.set(dotted, steps);
  return steps;
}

function parseSteps(dotted: string): SelectStep[] | undefined {
  if (dotted === '') return undefined;
  // The document itself: `keys_of: .` takes the top-level keys (Gemini's trustedFolders.json).
  if (dotted === '.') return [];
  const steps: SelectStep[] = [];
  for (const seg of dotted.split('.')) {
    const m = STEP.exec(seg);
    if (!m) return undefined;
    if (seg === '[]') steps.push({ fan: 'array' });
    else if (seg === '*') steps.push({ fan: 'all' });
    else steps.push({ key: m[1], ...(m[2] ? { fan: 'array' as const } : {}) });
  }
  return steps;
}

/** A value that is serialized JSON (the stringified event log) is decoded first. */
export function unwrap(v: unknown): unknown {
  if (typeof v === 'string' && /^\s*[{[]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

function own(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Every value a selector reaches in a document (bounded by SELECT_MAX_VALUES). */
export function selectValues(doc: unknown, steps: SelectStep[]): unknown[] {
  let level: unknown[] = [unwrap(doc)];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const cur of level) {
      if (cur === null || typeof cur !== 'object') continue;
      let v: unknown = cur;
      if (step.key !== undefined) {
        if (Array.isArray(cur)) continue;
        v = unwrap(own(cur, step.key));
      }
      if (step.fan === undefined) next.push(v);
      else if (Array.isArray(v)) next.push(...v.slice(0, SELECT_MAX_VALUES).map(unwrap));
      else if (step.fan === 'all' && v !== null && typeof v === 'object') next.push(...Object.values(v).slice(0, SELECT_MAX_VALUES).map(unwrap));
      if (next.length >= SELECT_MAX_VALUES) break;
    }
    level = next.slice(0, SELECT_MAX_VALUES);
  }
  return level;
}

/** The keys of every object a selector reaches (`keys_of`). */
export function selectKeys(doc: unknown, steps: SelectStep[]): string[] {
  return selectValues(doc, steps).flatMap((v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).slice(0, SELECT_MAX_VALUES) : []));
}

/** The value at a dotted path, decoding serialized JSON on the way (the first one when it fans out). */
export function atPath(obj: unknown, dotted: string): unknown {
  const steps = parseSelector(dotted);
  return steps ? selectValues(obj, steps)[0] : undefined;
}

/** A `where` condition of a jsonl hint: the value at `path` is one of `values`. */
export interface WhereCondition {
  path: string;
  values: string[];
}

/** Whether a record meets every condition (a scalar compared as its string form). */
export function meetsWhere(record: unknown, where: WhereCondition[]): boolean {
  return where.every((w) => {
    const steps = parseSelector(w.path);
    if (!steps) return false;
    return selectValues(record, steps).some((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && w.values.includes(String(v)));
  });
}
