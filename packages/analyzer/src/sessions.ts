import type { FactStore } from './facts.js';
import { sessionKey } from './facts.js';
import type { TimelineRow } from './row.js';

/** One record of sessions.jsonl (docs/formats.md). */
export interface SessionRecord {
  host: string;
  user: string;
  agent: string;
  session_id: string;
  name: string;
  client: string;
  project_path: string;
  /** Every directory the session worked in, in the order first seen (rows, then timed cwd reports). */
  project_paths: string[];
  git_branch: string;
  first_timestamp: string;
  last_timestamp: string;
  rows: number;
  counts: Record<string, number>;
  models: string[];
  utility_models: string[];
  tools: string[];
  permission_decisions: Record<string, number>;
  synced: 'yes' | 'no' | 'unknown';
  sources: string[];
  /** No row came from a primary artifact: rebuilt from secondary stores only (its directory deleted). */
  secondary_only: boolean;
  scratch_directory: string;
}

// The sets are made when first needed, and one source is held as a string: most sessions have one
// file and few models or tools, and five empty sets were half of a session's ~1.6 KB (200,000
// sessions of one Codex history.jsonl ran the analysis out of its heap).
interface Acc {
  rec: SessionRecord;
  models?: Set<string>;
  utility?: Set<string>;
  tools?: Set<string>;
  source: string;
  sources?: Set<string>;
  sync: boolean;
  primary: boolean;
  nameFromRow: string;
  cwdFromRow: string;
  branchFromRow: string;
  paths?: Set<string>;
}

/** `value` added to the set in `o[key]`, made on first use. */
function addTo<K extends 'models' | 'utility' | 'tools' | 'paths' | 'sources'>(o: Acc, key: K, value: string): void {
  const set = o[key];
  if (set) set.add(value);
  else o[key] = new Set([value]);
}

/** Directories listed per session (a bound: a session that cd's everywhere is still one record). */
const MAX_PATHS = 1000;

/** The result kind of a permission decision row: the word after `permission decision: `. */
export function decisionKind(text: string): string {
  return /^permission decision: (\S+)/.exec(text)?.[1] ?? (text.split(/\s+/)[0] || 'unknown');
}

/** Builds sessions.jsonl records from the merged rows (dropped copies count as sources only). */
export class SessionAccumulator {
  private readonly accs = new Map<string, Acc>();

  /** Take one row; `kept` is false for a row dedup dropped. */
  add(r: TimelineRow, kept: boolean): void {
    if (r.session_id === '') return;
    const k = sessionKey(r.host, r.user, r.agent, r.session_id);
    let a = this.accs.get(k);
    if (!a) {
      a = {
        rec: { host: r.host, user: r.user, agent: r.agent, session_id: r.session_id, name: '', client: '', project_path: '', project_paths: [], git_branch: '', first_timestamp: '', last_timestamp: '', rows: 0, counts: {}, models: [], utility_models: [], tools: [], permission_decisions: {}, synced: 'unknown', sources: [], secondary_only: false, scratch_directory: '' },
        source: r.source_file,
        sync: false,
        primary: false,
        nameFromRow: '',
        cwdFromRow: '',
        branchFromRow: '',
      };
      this.accs.set(k, a);
    }
    if (r.source_file !== a.source) addTo(a, 'sources', r.source_file);
    if (!r.sec) a.primary = true;
    if (!kept) return;
    const rec = a.rec;
    rec.rows++;
    rec.counts[r.turn_type] = (rec.counts[r.turn_type] ?? 0) + 1;
    if (r.timestamp_utc !== '') {
      if (rec.first_timestamp === '' || r.timestamp_utc < rec.first_timestamp) rec.first_timestamp = r.timestamp_utc;
      if (r.timestamp_utc > rec.last_timestamp) rec.last_timestamp = r.timestamp_utc;
    }
    if (r.model) addTo(a, r.tag === 'utility_model' ? 'utility' : 'models', r.model);
    if (r.turn_type === 'tool_use' && r.tool_name) addTo(a, 'tools', r.tool_name);
    if (r.tag === 'permission_decision') {
      const kind = decisionKind(r.text);
      rec.permission_decisions[kind] = (rec.permission_decisions[kind] ?? 0) + 1;
    }
    if (r.tag === 'sync') a.sync = true;
    if (r.tag === 'session_name' && !a.nameFromRow) a.nameFromRow = r.text.replace(/^session name: /, '');
    if (r.tag === 'scratch_directory') rec.scratch_directory = r.project_path || r.text.replace(/^scratch directory: /, '').replace(/ \(.*$/, '');
    if (!a.cwdFromRow && r.project_path) a.cwdFromRow = r.project_path;
    if (r.project_path && r.tag !== 'scratch_directory' && (a.paths?.size ?? 0) < MAX_PATHS) addTo(a, 'paths', r.project_path);
    if (!a.branchFromRow && r.git_branch) a.branchFromRow = r.git_branch;
  }

  /** Finish the records: facts first, then what the rows said. */
  finish(facts: FactStore, recordsSync: (agent: string) => boolean): SessionRecord[] {
    const out: SessionRecord[] = [];
    for (const [k, a] of this.accs) {
      const rec = a.rec;
      rec.name = facts.get(k, 'name') || a.nameFromRow;
      rec.client = facts.get(k, 'client');
      rec.project_path = facts.get(k, 'cwd') || a.cwdFromRow;
      rec.git_branch = facts.get(k, 'branch') || a.branchFromRow;
      for (const p of facts.values(k, 'cwd')) if ((a.paths?.size ?? 0) < MAX_PATHS) addTo(a, 'paths', p);
      if (rec.project_path && !a.paths) addTo(a, 'paths', rec.project_path);
      rec.project_paths = [...(a.paths ?? [])];
      // A session that ran in the agent's scratch directory (a VS Code worktree) belongs to the
      // other directory it names (the repository), not to the scratch one.
      if (rec.scratch_directory && rec.project_path === rec.scratch_directory) {
        const others = rec.project_paths.filter((p) => p !== rec.scratch_directory);
        if (others.length > 0) rec.project_path = others[others.length - 1];
      }
      rec.models = [...(a.models ?? [])].sort();
      rec.utility_models = [...(a.utility ?? [])].sort();
      rec.tools = [...(a.tools ?? [])].sort();
      rec.sources = [a.source, ...(a.sources ?? [])].sort();
      rec.secondary_only = !a.primary;
      const syncFact = facts.get(k, 'synced').toLowerCase();
      if (recordsSync(rec.agent)) rec.synced = a.sync || syncFact === 'yes' || syncFact === 'true' ? 'yes' : 'no';
      else rec.synced = syncFact === 'yes' || syncFact === 'true' ? 'yes' : 'unknown';
      out.push(rec);
    }
    out.sort((x, y) => cmp(x.host, y.host) || cmp(x.user, y.user) || cmp(x.agent, y.agent) || cmp(x.first_timestamp || '\uffff', y.first_timestamp || '\uffff') || cmp(x.session_id, y.session_id));
    return out;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
