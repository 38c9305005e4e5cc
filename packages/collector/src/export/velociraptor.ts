import type { Catalog } from '../catalog.js';
import { globRegex } from './glob-parts.js';
import { yamlLib } from '../libs.js';

/** The artifact's name (Velociraptor puts custom artifacts under `Custom.`). */
export const VELOCIRAPTOR_ARTIFACT = 'Custom.Aitrail.AgentArtifacts';

// One row per glob: the agent, the glob relative to a home (or absolute for system paths), and
// whether its files are secrets. The VQL reads this table, so an artifact is the same query for
// every catalog; only the rows change.
function rulesCsv(catalogs: Catalog[]): string {
  const q = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const rows = ['Agent,Scope,Glob,Secret'];
  for (const c of catalogs) {
    for (const g of c.collect) rows.push([c.agent, 'home', q(g), 'N'].join(','));
    for (const g of c.secrets) rows.push([c.agent, 'home', q(g), 'Y'].join(','));
    for (const g of c.system) rows.push([c.agent, /^[A-Za-z]:/.test(g) ? 'windows' : 'unix', q(g), 'N'].join(','));
  }
  return `${rows.join('\n')}\n`;
}

function excludeRegex(catalogs: Catalog[]): string {
  const all = catalogs.flatMap((c) => c.exclude);
  return all.length === 0 ? '^$' : all.map(globRegex).map((r) => `(${r})`).join('|');
}

const QUERY = (homeGlobs: string, systemScope: string) => `LET Rules <= SELECT * FROM parse_csv(filename=RuleTable, accessor='data')
  WHERE Agent IN Agents
LET Homes <= SELECT OSPath AS Home FROM glob(globs=${homeGlobs})
  WHERE IsDir
LET HomeFiles = SELECT * FROM foreach(row=Homes, query={
  SELECT * FROM foreach(row={ SELECT * FROM Rules WHERE Scope = 'home' }, query={
    SELECT OSPath, Size, Mtime, Atime, Ctime, Btime, IsLink, Agent, Secret
    FROM glob(globs=Glob, root=Home)
    WHERE NOT IsDir
  })
})
LET SystemFiles = SELECT * FROM foreach(row={ SELECT * FROM Rules WHERE Scope = '${systemScope}' }, query={
  SELECT OSPath, Size, Mtime, Atime, Ctime, Btime, IsLink, Agent, Secret
  FROM glob(globs=Glob)
  WHERE NOT IsDir
})
LET Files = SELECT * FROM chain(a=HomeFiles, b=SystemFiles)
  WHERE IncludeExcluded OR NOT OSPath.String =~ ExcludeRegex
SELECT OSPath AS SourceFile, Size, Mtime, Atime, Ctime, Btime, IsLink, Agent,
  Secret = 'Y' AS IsSecret,
  if(condition=IsLink OR (Secret = 'Y' AND SecretHandling != 'collect'),
     then=NULL, else=upload(file=OSPath)) AS Upload,
  if(condition=Secret = 'Y' AND SecretHandling = 'hash', then=hash(path=OSPath)) AS SecretHash
FROM Files
`;

/**
 * The catalogs as one Velociraptor client artifact: a source per OS that globs every catalog
 * path under every user home (and the system paths) and uploads the files, secrets as chosen.
 */
export function velociraptorArtifact(catalogs: Catalog[], toolVersion: string): string {
  const { stringify } = yamlLib();
  const agents = catalogs.map((c) => c.agent);
  const doc = {
    name: VELOCIRAPTOR_ARTIFACT,
    description: [
      `The local files AI coding agents leave on a machine (${agents.join(', ')}), as cataloged by aitrail ${toolVersion}.`,
      'Uploads every catalog path under every user home and the catalogs\' system paths. Import the',
      'collection with `aitrail import <collection.zip> --out host.zip`, then `aitrail analyze`.',
      'Project files (CLAUDE.md, .github/copilot-instructions.md) are not collected: their roots are',
      'only known once the logs are read; `aitrail collect --root` on a mounted image takes them.',
    ].join('\n'),
    author: `aitrail ${toolVersion} (aitrail catalog --format velociraptor)`,
    type: 'CLIENT',
    parameters: [
      { name: 'Agents', description: 'The agents whose files are collected.', type: 'multichoice', default: JSON.stringify(agents), choices: agents },
      {
        name: 'SecretHandling',
        description: 'Files a catalog marks as secrets (credentials, tokens): upload them (flagged), hash them only, or only list them.',
        type: 'choices',
        default: 'hash',
        choices: ['collect', 'hash', 'skip'],
      },
      { name: 'IncludeExcluded', description: 'Also collect the catalogs\' excluded folders (package caches, marketplace clones).', type: 'bool' },
      { name: 'RuleTable', description: 'The catalog globs (generated; edit the aitrail catalog instead).', type: 'csv', default: rulesCsv(catalogs) },
      { name: 'ExcludeRegex', description: 'The catalogs\' exclusions as one regex (generated).', type: 'regex', default: excludeRegex(catalogs) },
    ],
    sources: [
      { name: 'Windows', precondition: "SELECT OS FROM info() WHERE OS = 'windows'", query: QUERY("['C:/Users/*']", 'windows') },
      { name: 'Linux', precondition: "SELECT OS FROM info() WHERE OS = 'linux'", query: QUERY("['/home/*', '/root']", 'unix') },
      { name: 'macOS', precondition: "SELECT OS FROM info() WHERE OS = 'darwin'", query: QUERY("['/Users/*', '/var/root']", 'unix') },
    ],
  };
  return stringify(doc, { lineWidth: 0, blockQuote: 'literal' });
}
