/**
 * The small standing-state files: trustedFolders.json (folder trust levels; trust.ts),
 * policies/*.toml (`[[rule]]` tables, including the "allow always" rules saved in
 * auto-saved.toml; policy/config.ts) and google_accounts.json (the signed-in Google account and
 * the previous ones; userAccountManager.ts). One row per entry, at the file's mtime.
 */
import { asArray, asString, isObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonDoc } from './json-file.js';
import type { FamilyPaths } from './paths.js';
import { tomlLib } from '../../sdk/libs.js';
import { jsonText } from '../../sdk/compact-json.js';

async function* parseTrustedFolders(a: Artifact): AsyncGenerator<Row> {
  const r = await readJsonDoc(a);
  if (!r.ok) return yield r.row;
  if (!isObject(r.value)) return yield unreadableRow('expected an object of folder → trust level, found another JSON value', { timestamp_utc: a.mtime });
  for (const [path, level] of Object.entries(r.value)) {
    yield makeRow('system', `permission setting: trustedFolders.${path}=${asString(level) ?? jsonText(level)}`, { timestamp_utc: a.mtime, project_path: path, tag: 'permission_setting' });
  }
}

const RULE_EXTRAS = ['commandPrefix', 'argsPattern', 'mcpName', 'modes'];

function tomlValue(v: unknown): string {
  if (Array.isArray(v)) return v.map(tomlValue).join(',');
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : jsonText(v);
}

async function* parsePolicies(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readSmall(a.stream(), 16 * 1024 * 1024);
  if (!r.ok) return yield unreadableRow(r.reason, { timestamp_utc: a.mtime });
  let doc: Record<string, unknown>;
  try {
    doc = tomlLib().parse(decodeText(r.buffer), { maxDepth: 64 }) as Record<string, unknown>;
  } catch (e) {
    return yield unreadableRow(`expected TOML policy rules, found invalid TOML: ${(e as Error).message.split('\n')[0]}`, { timestamp_utc: a.mtime });
  }
  const from = a.rel.slice(a.rel.toLowerCase().lastIndexOf('policies/'));
  const project_path = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  for (const k of Object.keys(doc)) if (k !== 'rule') ctx.unknown(`policy table ${k}`);
  const rules = asArray(doc.rule) ?? [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (!isObject(rule)) continue;
    const extras = RULE_EXTRAS.filter((k) => rule[k] !== undefined).map((k) => ` ${k}=${tomlValue(rule[k])}`);
    const text = `permission setting: policy rule toolName=${tomlValue(rule.toolName ?? '-')} decision=${tomlValue(rule.decision ?? '-')}${extras.join('')} (from ${from})`;
    yield makeRow('system', text, { timestamp_utc: a.mtime, project_path, source_line: i + 1, tag: 'permission_setting' });
  }
}

async function* parseAccounts(a: Artifact): AsyncGenerator<Row> {
  const r = await readJsonDoc(a, true);
  if (!r.ok) return yield r.row;
  if (!isObject(r.value)) return yield unreadableRow('expected {active, old}, found another JSON value', { timestamp_utc: a.mtime });
  const active = asString(r.value.active);
  if (active) yield makeRow('system', `signed in: ${active} (google_accounts.json)`, { timestamp_utc: a.mtime, tag: 'signed_in' });
  for (const old of asArray(r.value.old) ?? []) {
    const email = asString(old);
    if (email) yield makeRow('system', `previous account: ${email} (google_accounts.json)`, { timestamp_utc: a.mtime, tag: 'account' });
  }
}

/** trustedFolders.json, policies/*.toml and google_accounts.json: standing grants and the account. */
export function configFilesParser(paths: FamilyPaths): Parser {
  const d = paths.profile.dir;
  return {
    agent: paths.profile.agent,
    name: 'config',
    patterns: [`${d}/trustedFolders.json`, `${d}/policies/*.toml (home, project, system)`, `${d}/google_accounts.json`],
    wants: (rel) => paths.trustedFolders.test(rel) || paths.policies.test(rel) || paths.accounts.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    // The account cache names email addresses and holds no token; it is flagged as personal data.
    readsSecretFile: (rel) => paths.accounts.test(rel),
    parse: (a, ctx) => (paths.trustedFolders.test(a.rel) ? parseTrustedFolders(a) : paths.policies.test(a.rel) ? parsePolicies(a, ctx) : parseAccounts(a)),
  };
}
