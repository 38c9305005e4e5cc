import { createHash } from 'node:crypto';
import type { Catalog } from '../catalog.js';
import { globParts } from './glob-parts.js';
import { yamlLib } from '../libs.js';

/** A GUID derived from a name, so a re-export keeps each target's Id. */
function guid(name: string): string {
  const h = createHash('sha256').update(`aitrail kape target ${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The target file name of an agent (`Aitrail_copilot-cli.tkape`). */
export const kapeTargetName = (agent: string) => `Aitrail_${agent}`;

/** One KAPE target entry for a glob under `base` (`C:\Users\%user%`, or a drive root for system paths). */
function entry(agent: string, base: string, glob: string, comment: string) {
  const p = globParts(glob);
  const dir = [base, ...p.dir.split('/').filter(Boolean), ...(p.deep ? p.rest.split('/').slice(0, -1).filter((s) => s !== '**') : [])].join('\\');
  return {
    Name: `${agent}: ${glob}`,
    Category: 'AIAgents',
    Path: `${dir}\\`,
    FileMask: p.rest === '' ? (glob.split('/').pop() ?? '*') : p.name,
    Recursive: p.rest.includes('**'),
    Comment: comment,
  };
}

/**
 * The catalogs as KAPE targets: one `.tkape` per agent (home globs under `C:\Users\%user%`,
 * Windows system globs) and a compound target naming them all. KAPE has no exclusions: the
 * excluded folders are listed in each target's comments and collected (aitrail import drops them).
 */
export function kapeTargets(catalogs: Catalog[], toolVersion: string): { name: string; text: string }[] {
  const { stringify } = yamlLib();
  const out: { name: string; text: string }[] = [];
  for (const c of catalogs) {
    const targets = [
      ...c.collect.map((g) => entry(c.agent, 'C:\\Users\\%user%', g, 'aitrail catalog collect glob')),
      ...c.secrets.map((g) => entry(c.agent, 'C:\\Users\\%user%', g, 'aitrail catalog secret glob: credentials or tokens; handle the output accordingly')),
      ...c.system.filter((g) => /^[A-Za-z]:\//.test(g)).map((g) => entry(c.agent, g.slice(0, 2), g.slice(3), 'aitrail catalog system glob')),
    ];
    const doc = {
      Description: `${c.name}: the files aitrail collects (catalog ${c.agent} version ${c.version})`,
      Author: `aitrail ${toolVersion}`,
      Version: 1.0,
      Id: guid(c.agent),
      RecreateDirectories: true,
      Targets: targets,
    };
    const excl = c.exclude.length ? `# Excluded by aitrail (collected here, dropped by aitrail import): ${c.exclude.join(', ')}\n` : '';
    out.push({ name: `${kapeTargetName(c.agent)}.tkape`, text: `${excl}${stringify(doc, { lineWidth: 0 })}` });
  }
  const all = {
    Description: 'Every AI coding agent aitrail catalogs',
    Author: `aitrail ${toolVersion}`,
    Version: 1.0,
    Id: guid('all'),
    RecreateDirectories: true,
    Targets: catalogs.map((c) => ({ Name: c.name, Category: 'AIAgents', Path: `${kapeTargetName(c.agent)}.tkape`, Comment: `catalog ${c.agent} version ${c.version}` })),
  };
  out.push({ name: 'Aitrail_AllAgents.tkape', text: stringify(all, { lineWidth: 0 }) });
  return out;
}
