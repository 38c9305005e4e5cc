import type { SummaryGroup } from './options.js';
import type { ManifestRow } from './types.js';

/** Counts per status and totals per user, agent and scope, over a run's manifest rows. */
export function totalsOf(rows: readonly ManifestRow[]): { counts: Record<string, number>; groups: SummaryGroup[] } {
  const counts: Record<string, number> = {};
  const groups = new Map<string, SummaryGroup>();
  for (const r of rows) {
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    // A row several catalogs claim counts for each of them.
    for (const agent of r.agents ?? [r.agent]) tally(groups, r, agent);
  }
  return { counts, groups: [...groups.values()] };
}

function tally(groups: Map<string, SummaryGroup>, r: ManifestRow, agent: string): void {
  const k = `${r.user}\0${agent}\0${r.scope}`;
  let g = groups.get(k);
  if (!g) {
    g = { user: r.user, agent, scope: r.scope, files: 0, bytes: 0, secrets: 0, skipped: 0, errors: 0 };
    groups.set(k, g);
  }
  if (r.status === 'collected') {
    g.files += 1;
    g.bytes += r.bytes_read ?? r.size ?? 0;
  } else if (r.status === 'error') g.errors += 1;
  else g.skipped += 1;
  if (r.secret) g.secrets += 1;
}
