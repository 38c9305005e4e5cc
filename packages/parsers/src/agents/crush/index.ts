import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseCrushConfig, parseCrushProjects } from './config-parser.js';
import { parseCrushDb } from './db-parser.js';
import { CRUSH_PATHS } from './paths.js';

/** Crush: the per-project `.crush/crush.db` store, the projects registry, and crush.json configs (permissions, models, MCP servers). */
export const crushPlugin: AgentPlugin = {
  agent: 'crush',
  parsers: [
    pathParser('crush', 'db', ['<project>/.crush/crush.db (+ -wal)'], CRUSH_PATHS.db, parseCrushDb),
    pathParser('crush', 'projects', ['~/.local/share/crush/projects.json', '%LOCALAPPDATA%/crush/projects.json'], CRUSH_PATHS.projects, parseCrushProjects),
    // Flagged for provider api_key / oauth and MCP env and headers: only settings and server names are printed.
    pathParser('crush', 'config', ['~/.config/crush/crush.json', '~/.local/share/crush/crush.json', '<project>/{crush.json,.crush.json,.crush/crush.json}'], CRUSH_PATHS.config, parseCrushConfig, { secret: true }),
  ],
};
