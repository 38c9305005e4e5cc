import type { Parser } from '../../sdk/types.js';
import { parseModelState, parseOpenCodeConfig } from './config-parser.js';
import { parseOpenCodeDb } from './db-parser.js';
import { OpenCodePaths } from './paths.js';
import type { OpenCodeProfile } from './profile.js';
import { parseStorage } from './storage-parser.js';

interface Spec {
  name: string;
  patterns: string[];
  wants: (rel: string) => boolean;
  secret?: boolean;
  copyRank?: number;
  parse: Parser['parse'];
}

function parser(profile: OpenCodeProfile, s: Spec): Parser {
  return {
    agent: profile.agent,
    name: profile.parserPrefix + s.name,
    patterns: s.patterns,
    wants: s.wants,
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    readsSecretFile: (rel) => s.secret === true && s.wants(rel),
    ...(s.copyRank !== undefined ? { copyRank: (rel: string) => (s.wants(rel) ? s.copyRank! : 0) } : {}),
    parse: s.parse,
  };
}

/**
 * The parsers of one member of the OpenCode family, instantiated from its profile: OpenCode
 * itself, and Kilo Code's CLI (its `kilo-code` folder passes a profile with `app: 'kilo'`, its own
 * database names and a parser prefix). `db` reads the SQLite store, `storage` the legacy JSON
 * store it was migrated from (a copy: the database's rows win), `config` the config files,
 * `model-state` the recent-model list.
 */
export function familyParsers(profile: OpenCodeProfile): Parser[] {
  const p = new OpenCodePaths(profile);
  const data = `~/.local/share/${profile.app}`;
  return [
    parser(profile, {
      name: 'db',
      patterns: [`${data}/${profile.dbNames.replace(/\\/g, '')} (+ -wal)`],
      wants: (rel) => p.db.test(rel),
      // Mixed store: account, control_account and credential rows hold tokens; only session tables are read.
      secret: true,
      copyRank: 0,
      parse: (a, ctx) => parseOpenCodeDb(a, ctx, profile),
    }),
    parser(profile, {
      name: 'storage',
      patterns: [`${data}/storage/{session,message,part,todo,permission,session_share}/**/*.json`, `${data}/project/<slug>/storage/session/{info,message,part}/**/*.json`],
      wants: (rel) => p.storageKind(rel) !== '',
      // session_share/<id>.json holds the share secret: only its URL is printed.
      secret: true,
      copyRank: 1,
      parse: (a, ctx) => parseStorage(a, ctx, p),
    }),
    parser(profile, {
      name: 'config',
      patterns: [`~/.config/${profile.app}/{${profile.configNames.join(',')}}`, `<project>/{${profile.projectDirs.join(',')}/}{${profile.projectConfigNames.join(',')}}`],
      wants: (rel) => p.config.test(rel),
      secret: true,
      parse: parseOpenCodeConfig,
    }),
    parser(profile, {
      name: 'model-state',
      patterns: [`~/.local/state/${profile.app}/model.json`],
      wants: (rel) => p.modelState.test(rel),
      parse: parseModelState,
    }),
  ];
}
