import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { type Layout, mapTargetPath } from './homes.js';
import { decodeName, encodeRoot } from './names.js';
import type { ProjectOutcome } from './options.js';
import { outIgnoresCase, refuseOutInside } from './out-guard.js';
import { readHintValues } from './project-hints.js';
import type { Run } from './run.js';
import { tooDeepRow } from './walk.js';

/** Project roots on other hosts kept as outcomes, per collection (a note says how many more). */
export const MAX_REMOTE_OUTCOMES = 200;

/**
 * The home as the target recorded it: itself on a live system; under --root, its place inside
 * the image written as the image's OS would (`C:\Users\x`, `/home/x`). Hints such as JetBrains'
 * `$USER_HOME$/proj` are resolved against it, then mapped like any recorded path.
 */
export function targetHome(home: string, layout: Layout, root: string | undefined): string {
  if (!root) return home;
  const rel = path.relative(root, home).split(path.sep).filter(Boolean);
  return layout === 'win32' ? `C:\\${rel.join('\\')}` : `/${rel.join('/')}`;
}

/**
 * Read the project roots that the collected hint files record (jsonl and text hints scanned
 * during the file's own read; the others re-read read-only from disk, bounded), and collect each existing root's catalog `project` globs, walking only their prefixes,
 * never into the built-in pruned directories, within the project walk bounds. The catalogs that
 * recorded one root walk it in one batch, so a file two of them claim is one row.
 */
export async function collectProjects(run: Run, layout: Layout, nocase: boolean, root: string | undefined): Promise<ProjectOutcome[]> {
  const found = new Map<string, { root: string; user: string; home: string; agent: string }>();
  const remote = new Map<string, ProjectOutcome>();
  let remoteDropped = 0;
  const catalogs = new Map(run.opts.catalogs.map((c) => [c.agent, c]));
  for (const hf of run.hintFiles) {
    if (run.signal?.aborted) throw run.signal.reason ?? new Error('aborted');
    // Line hints were scanned as the file was collected; the others are read again, bounded.
    const { values, remote: elsewhere, problem } = hf.read ?? (await readHintValues(hf.hint, hf.fsPath, targetHome(hf.home, layout, root)));
    if (problem) run.note(`project hints: ${decodeName(hf.fsPath).text} ${problem}`);
    for (const value of values) {
      const key = `${hf.catalog.agent}\0${nocase ? value.toLowerCase() : value}`;
      if (!found.has(key)) found.set(key, { root: value, user: hf.user, home: hf.home, agent: hf.catalog.agent });
    }
    for (const r of elsewhere) {
      const key = `${hf.catalog.agent}\0${r}`;
      if (remote.has(key)) continue;
      if (remote.size >= MAX_REMOTE_OUTCOMES) remoteDropped += 1;
      else remote.set(key, { root: r, user: hf.user, agent: hf.catalog.agent, status: 'remote' });
    }
  }
  if (remote.size > 0) {
    const more = remoteDropped > 0 ? ` (${remoteDropped} more not listed)` : '';
    run.note(`project hints named ${remote.size} folders on other hosts or file systems${more} (vscode-remote://, file://host/...): not collected from this machine; collect on those hosts`);
  }
  const outcomes: ProjectOutcome[] = [];
  // Catalogs that recorded the same root walk it together (one batch per root).
  const byRoot = new Map<string, { root: string; user: string; home: string; agent: string }[]>();
  for (const f of found.values()) {
    const k = nocase ? f.root.toLowerCase() : f.root;
    byRoot.set(k, [...(byRoot.get(k) ?? []), f]);
  }
  for (const group of byRoot.values()) {
    run.beginBatch();
    for (const f of group) await walkProject(run, f, catalogs, outcomes, layout, nocase, root);
    await run.endBatch();
  }
  return [...outcomes, ...remote.values()];
}

async function walkProject(
  run: Run,
  f: { root: string; user: string; home: string; agent: string },
  catalogs: Map<string, Run['opts']['catalogs'][number]>,
  outcomes: ProjectOutcome[],
  layout: Layout,
  nocase: boolean,
  root: string | undefined,
): Promise<void> {
  const catalog = catalogs.get(f.agent)!;
  const outcome: ProjectOutcome = { root: f.root, user: f.user, agent: f.agent, status: 'collected' };
  outcomes.push(outcome);
  const mapped = mapTargetPath(f.root, layout, path, root);
  if (!mapped) {
    outcome.status = 'unmappable';
    return;
  }
  const st = await lstat(mapped).catch(() => undefined);
  if (!st) outcome.status = 'missing';
  else if (st.isSymbolicLink()) outcome.status = 'symlink_not_followed';
  else if (!st.isDirectory()) outcome.status = 'not_a_directory';
  if (outcome.status !== 'collected') return;
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
