import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishOutputs } from '../../atomic.js';
import type { TimelineRow } from '../../row.js';
import { FindingsEngine } from '../engine.js';
import { loadRules } from '../load.js';
import type { Finding, Rule, SinkEnd } from '../types.js';

let n = 0;

/** A timeline row for tests: a Claude Code session in /home/u/proj unless told otherwise. */
export function row(p: Partial<TimelineRow>): TimelineRow {
  n++;
  return { timestamp_utc: `2026-01-01T00:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`, host: 'h', user: 'u', agent: 'claude-code', session_id: 's1', project_path: '/home/u/proj', git_branch: '', model: '', turn_type: 'system', tool_name: '', tool_use_id: '', text: '', source_file: 'homes/u/.claude/projects/p/s1.jsonl', source_line: n, ord: n, ...p };
}

/** A tool call row. */
export const call = (tool: string, text: string, p: Partial<TimelineRow> = {}) => row({ turn_type: 'tool_use', tool_name: tool, text, ...p });

/** Run rules (the built-in ones by default) over rows and inventory homes; the findings as findings.jsonl holds them. */
export async function runRules(rows: TimelineRow[], homes: SinkEnd['homes'] = [], rules?: Rule[]): Promise<Finding[]> {
  const dir = mkdtempSync(join(tmpdir(), 'aitrail-findings-test-'));
  try {
    const e = new FindingsEngine(rules ?? (await loadRules([])), dir);
    for (const r of rows) e.row(r);
    await e.end({ out: dir, homes });
    await publishOutputs(dir, ['findings.jsonl']);
    return readFileSync(join(dir, 'findings.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Finding);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
