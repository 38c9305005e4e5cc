import type { Parser } from './types.js';

/** What sets a {@link pathParser} apart beyond its path. */
export interface PathParserOptions {
  /** It reads only non-credential fields of the secret files it wants (see {@link Parser.readsSecretFile}). */
  secret?: boolean;
  /** Its files repeat a primary log (rows dedup may drop), with no time tolerance. */
  secondary?: boolean;
  /** Its files are copies of another store, ranked so (see {@link Parser.copyRank}). */
  copyRank?: number;
}

/**
 * A parser that wants the files one path expression matches: the shape most agents' parsers take,
 * written once instead of a factory per agent.
 */
export function pathParser(agent: string, name: string, patterns: string[], re: RegExp, parse: Parser['parse'], opts: PathParserOptions = {}): Parser {
  return {
    agent,
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: (rel) => opts.secondary === true && re.test(rel),
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    readsSecretFile: (rel) => opts.secret === true && re.test(rel),
    ...(opts.copyRank !== undefined ? { copyRank: (rel: string) => (re.test(rel) ? opts.copyRank! : 0) } : {}),
    parse,
  };
}
