import type { AgentPlugin, Parser } from '../../sdk/types.js';
import { parseCrushConfig, parseCrushProjects } from './config-parser.js';
import { parseCrushDb } from './db-parser.js';
import { CRUSH_PATHS } from './paths.js';

function crushParser(name: string, patterns: string[], re: RegExp, parse: Parser['parse'], secret = false): Parser {
  return {
    agent: 'crush',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    readsSecretFile: (rel) => secret && re.test(rel),
    parse,
  };
}

/** Crush: the per-project `.crush/crush.db` store, the projects registry, and crush.json configs (permissions, models, MCP servers). */
export const crushPlugin: AgentPlugin = {
  agent: 'crush',
  parsers: [
    crushParser('db', ['<project>/.crush/crush.db (+ -wal)'], CRUSH_PATHS.db, parseCrushDb),
    crushParser('projects', ['~/.local/share/crush/projects.json', '%LOCALAPPDATA%/crush/projects.json'], CRUSH_PATHS.projects, parseCrushProjects),
    // Flagged for provider api_key / oauth and MCP env and headers: only settings and server names are printed.
    crushParser('config', ['~/.config/crush/crush.json', '~/.local/share/crush/crush.json', '<project>/{crush.json,.crush.json,.crush/crush.json}'], CRUSH_PATHS.config, parseCrushConfig, true),
  ],
};
