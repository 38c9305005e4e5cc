import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { type Layout, mapTargetPath } from './homes.js';
import { outIgnoresCase, refuseOutInside } from './out-guard.js';
import { encodeRoot } from './names.js';
import type { ProjectOutcome } from './options.js';
import { readHintValues } from './project-hints.js';
import type { Run } from './run.js';
import { decodeName } from './names.js';
import { tooDeepRow } from './walk.js';

/**
 * Read the project roots that the collected hint files record (re-read read-only from disk,
 * bounded), and collect each existing root's catalog `project` globs, walking only their prefixes,
 * never into the built-in pruned directories, within the project walk bounds.
 */
export async function collectProjects(run: Run, layout: Layout, nocase: boolean, root: string | undefined): Promise<ProjectOutcome[]> {
  const found = new Map<string, { root: string; user: string; home: string; agent: string }>();
  const catalogs = new Map(run.opts.catalogs.map((c) => [c.agent, c]));
  for (const hf of run.hintFiles) {
    if (run.signal?.aborted) throw run.signal.reason ?? new Error('aborted');
    const { values, problem } = await readHintValues(hf.hint, hf.fsPath);
    if (problem) run.note(`project hints: ${decodeName(hf.fsPath).text} ${problem}`);
    for (const value of values) {
      const key = `${hf.catalog.agent}\0${nocase ? value.toLowerCase() : value}`;
      if (!found.has(key)) found.set(key, { root: value, user: hf.user, home: hf.home, agent: hf.catalog.agent });
    }
  }
  const outcomes: ProjectOutcome[] = [];
  for (const f of found.values()) {
    const catalog = catalogs.get(f.agent)!;
    const outcome: ProjectOutcome = { root: f.root, user: f.user, agent: f.agent, status: 'collected' };
    outcomes.push(outcome);
    const mapped = mapTargetPath(f.root, layout, path, root);
    if (!mapped) {
      outcome.status = 'unmappable';
      continue;
    }
    const st = await lstat(mapped).catch(() => undefined);
    if (!st) outcome.status = 'missing';
    else if (st.isSymbolicLink()) outcome.status = 'symlink_not_followed';
    else if (!st.isDirectory()) outcome.status = 'not_a_directory';
    if (outcome.status !== 'collected') continue;
    // Project roots are known only from files already read, after the archive was begun: the
    // caller removes its .partial when this refuses.
    if (!run.opts.dryRun) await refuseOutInside(run.opts.out, [{ label: `project root ${f.root}`, path: mapped }], outIgnoresCase(run.opts.platform ?? process.platform));
    const scope = run.scope(
      catalog,
      {
        user: f.user,
        home: f.home,
        scope: 'project',
        projectRoot: f.root,
        memberPrefix: `projects/${encodeRoot(f.root)}/`,
        globPath: (r) => r,
      },
      nocase,
    );
    await run.walkGlobs(scope, mapped.replace(/[\\/]+$/, '') || path.sep, [...catalog.project.collect, ...catalog.project.secrets], nocase);
    const deep = scope.limit && tooDeepRow(scope.limit);
    if (deep) run.row(deep);
  }
  return outcomes;
}
