import type { AgentPlugin, Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { parseConfig } from './config-parser.js';
import { parseDevData } from './dev-data.js';
import { parseSessionIndex } from './index-parser.js';
import { devDataEvent, isConfig, isSessionIndex, sessionFile } from './paths.js';
import { parseSession } from './session-parser.js';

function parser(name: string, patterns: string[], wants: (rel: string) => boolean, parse: (a: Artifact, ctx: ParseContext) => AsyncIterable<Row>, opts: { secondary?: boolean; secret?: boolean } = {}): Parser {
  return {
    agent: 'continue',
    name,
    patterns,
    wants,
    secondary: (rel) => opts.secondary === true && wants(rel),
    // A dev data line is written when the request or tool use ends; the session row it repeats takes the same line's time.
    secondaryToleranceSeconds: () => 3600,
    recordsSync: false,
    readsSecretFile: (rel) => opts.secret === true && wants(rel),
    parse,
  };
}

/** Continue: sessions joined with the dev data for times and tool approvals, the session index, the dev data alone, configs (models, MCP servers). */
export const continuePlugin: AgentPlugin = {
  agent: 'continue',
  parsers: [
    parser('session', ['~/.continue/sessions/<id>.json'], (rel) => sessionFile(rel) !== undefined, (a, ctx) => parseSession(a, ctx, sessionFile(a.rel) ?? '')),
    parser('session-index', ['~/.continue/sessions/sessions.json'], isSessionIndex, parseSessionIndex, { secondary: true }),
    parser('dev-data', ['~/.continue/dev_data/{0.2.0/,0.1.0/,}<event>.jsonl'], (rel) => devDataEvent(rel) !== undefined, parseDevData, { secondary: true }),
    parser('config', ['~/.continue/config.{yaml,json}', '~/.continue/mcpServers/*.{yaml,json}', '<project>/.continue/mcpServers/*', '<project>/.continuerc.json'], isConfig, parseConfig, { secret: true }),
  ],
};
