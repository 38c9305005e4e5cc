import type { ParseError } from 'jsonc-parser';
import { asString, isObject } from '../../sdk/decode.js';
import { parseJsonc, whyUnparsed } from '../../sdk/json-document.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { completePart, copilotParser, describeJson, holdsEntries, readText } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';
import { jsoncLib } from '../../sdk/libs.js';

const LISTS = ['allowedUrls', 'deniedUrls'] as const;

/**
 * settings.json (JSON with comments): one system row per allowedUrls and deniedUrls entry,
 * `permission setting: allowedUrls=<url>`, at the file's mtime, no session; source_line is the
 * entry's 1-based index in its list. The other settings (model, footer...) give no rows. A file
 * cut mid-write keeps its complete URLs, with a warning that quotes nothing from the file.
 */
export const copilotSettingsParser: Parser = copilotParser({
  name: 'settings',
  patterns: COPILOT_PATTERNS.settings,
  secondary: false,
  toleranceSeconds: 0,
  // The catalog flags settings.json (it can hold a proxy password); this parser reads only the
  // URL lists, and prints nothing else from the file, not even in its error rows.
  readsSecretFile: true,
  parse: parseSettings,
});

async function* parseSettings(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const t = await readText(a);
  if ('row' in t) {
    yield t.row;
    return;
  }
  const errors: ParseError[] = [];
  let v: unknown;
  try {
    v = parseJsonc(t.text, errors);
  } catch (e) {
    yield unreadableRow(`expected JSON with comments, found text that cannot be parsed: ${whyUnparsed(e)}`);
    return;
  }
  if (errors.length > 0) {
    // A file cut mid-write: the complete URLs before the cut (a cut one is never taken whole).
    const part = completePart(t.text);
    if (part && (holdsEntries(part.value, 'allowedUrls') || holdsEntries(part.value, 'deniedUrls'))) {
      ctx.warn(`expected JSON with comments, found invalid JSON (${part.reason}) at line ${part.line}: the complete entries before it were read`, part.line);
      v = part.value;
    } else {
      const e = errors[0];
      yield unreadableRow(`expected JSON with comments, found invalid JSON: ${jsoncLib().printParseErrorCode(e.error)} at offset ${e.offset}`);
      return;
    }
  }
  if (!isObject(v)) {
    yield unreadableRow(`expected a JSON object of settings, found ${describeJson(v)}`);
    return;
  }
  const timestamp_utc = toUtc(a.mtime);
  for (const list of LISTS) {
    const entries = v[list];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries)) {
      yield badLineRow(`expected ${list} to be an array, found ${describeJson(entries)}`, '(value not printed: settings.json may hold credentials)', null, { timestamp_utc });
      continue;
    }
    for (let i = 0; i < entries.length; i++) {
      // A URL is printed as written; anything else is not printed (the file may hold credentials).
      const value = asString(entries[i]) ?? `(${describeJson(entries[i])}, not printed)`;
      yield makeRow('system', `permission setting: ${list}=${value}`, { timestamp_utc, source_line: i + 1, tag: 'permission_setting' });
    }
  }
}
