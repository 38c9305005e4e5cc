/**
 * Two line stores: the checkpointing shadow repository's reflog (`history/<id>/.git/logs/HEAD`,
 * git's own format: one line per "Snapshot for <tool>" commit, dated; gitService.ts) and Qwen
 * Code's `usage_record.jsonl` (one summary per run: session, project, models, tool counts).
 */
import { asNumber, asObject, asString, isObject } from '../../sdk/decode.js';
import { readJsonLines, readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import type { FamilyPaths } from './paths.js';
import { resolveProject } from './project.js';

// "<old sha> <new sha> <name> <<email>> <epoch s> <+hhmm>\t<message>"
const REFLOG = /^([0-9a-f]{7,64}) ([0-9a-f]{7,64}) (.*?) <([^>]*)> (\d+) [+-]\d{4}\t(.*)$/;

async function* parseReflog(a: Artifact, _ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const project_path = await resolveProject(a, paths);
  for await (const l of readLines(a.stream())) {
    if (l.text.trim() === '') continue;
    const m = REFLOG.exec(l.text);
    if (!m) {
      yield badLineRow('not a git reflog line', l.text, l.line, { project_path });
      continue;
    }
    yield makeRow('system', `file snapshot: ${m[6]} commit=${m[2]}`, { timestamp_utc: toUtc(Number(m[5])), project_path, source_line: l.line, tag: 'file_snapshot' });
  }
}

function usageText(v: Record<string, unknown>): string {
  const models = Object.entries(asObject(v.models) ?? {}).map(([name, m]) => {
    const o = isObject(m) ? m : {};
    return `${name}(${asNumber(o.requests) ?? '-'} requests, ${asNumber(o.totalTokens) ?? '-'} tokens)`;
  });
  const tools = asObject(v.tools) ?? {};
  const files = asObject(v.files) ?? {};
  return `usage: ${asNumber(v.durationMs) ?? '-'} ms, models=${models.join(' ') || '-'}, tools=${asNumber(tools.totalCalls) ?? '-'} calls (${asNumber(tools.totalFail) ?? 0} failed), lines +${asNumber(files.linesAdded) ?? 0} -${asNumber(files.linesRemoved) ?? 0}`;
}

async function* parseUsage(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const reported = new Set<string>();
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    const v = l.value;
    const session = asString(v.sessionId) ?? '';
    const project = asString(v.project) ?? '';
    if (session && project && !reported.has(session)) {
      reported.add(session);
      ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 3 });
    }
    yield makeRow('system', usageText(v), { timestamp_utc: toUtc(v.timestamp), session_id: session, project_path: project, source_line: l.line, tag: 'usage' });
  }
}

/** The shadow repository's reflog: one dated row per file snapshot. */
export function reflogParser(paths: FamilyPaths): Parser {
  return {
    agent: paths.profile.agent,
    name: 'snapshots',
    patterns: [`${paths.profile.dir}/history/<id>/.git/logs/HEAD`],
    wants: (rel) => paths.reflog.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    parse: (a, ctx) => parseReflog(a, ctx, paths),
  };
}

/** `usage_record.jsonl`: one row per run. */
export function usageParser(paths: FamilyPaths): Parser {
  return {
    agent: paths.profile.agent,
    name: 'usage',
    patterns: [`${paths.profile.dir}/usage_record.jsonl`],
    wants: (rel) => paths.usage.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    parse: (a, ctx) => parseUsage(a, ctx),
  };
}
