import { FREE_FORM_DEPTH, kindOf, shallow } from './collection-info.js';
import type { ManifestRow } from './types.js';

type FieldType = 'string' | 'boolean' | 'count' | 'count?' | 'strings' | 'object';

/**
 * The type of each field a manifest row may hold ({@link ManifestRow}). A field may be absent
 * (older collectors wrote fewer), but one present with another type is a hostile or broken row:
 * verify and analyze take these as what they say (an array nested 100,000 deep as a user name
 * overflowed the stack and ended a whole analysis; one as a hash ended verify), so the row is
 * refused like a line that is not JSON, and its member shows as one the manifest does not list.
 */
const FIELDS: Record<string, FieldType> = {
  user: 'string',
  home: 'string',
  agent: 'string',
  agents: 'strings',
  scope: 'string',
  rel: 'string',
  source_path: 'string',
  archive_path: 'string',
  status: 'string',
  reason: 'string',
  secret: 'boolean',
  kind: 'string',
  size: 'count?',
  bytes_read: 'count?',
  sha256: 'string',
  mtime: 'string',
  atime: 'string',
  ctime: 'string',
  birthtime: 'string',
  mode: 'string',
  files: 'count',
  bytes: 'count',
  project_root: 'string',
  link_target: 'string',
  imported: 'object',
};

const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const FITS: Record<FieldType, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  count: isCount,
  'count?': (v) => v === null || isCount(v),
  strings: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  // Printed whole (inventory, verify): nested as deep as any collector writes, no deeper.
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && shallow(v),
};

const EXPECTED: Record<FieldType, string> = { string: 'a string', boolean: 'true or false', count: 'a count', 'count?': 'a count or null', strings: 'a list of strings', object: `an object nested at most ${FREE_FORM_DEPTH} levels` };

/** The first field of `row` present with a type a manifest row never has, described; undefined when none. */
export function misfitField(row: Record<string, unknown>): string | undefined {
  for (const [k, t] of Object.entries(FIELDS)) {
    if (!(k in row) || FITS[t](row[k])) continue;
    return `"${k}" as ${kindOf(row[k])} (expected ${EXPECTED[t]})`;
  }
  return undefined;
}
