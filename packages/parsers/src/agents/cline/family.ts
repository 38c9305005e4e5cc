import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { parseApiHistory } from './api-parser.js';
import { ClinePaths } from './paths.js';
import type { ClineFamilyProfile } from './profile.js';
import { parseSdkDb } from './sdk-db.js';
import { parseSdkManifest, parseSdkMessages } from './sdk-store.js';
import { parseMcpSettings, parseProviders, parseStateDb, parseStateFile } from './settings.js';
import { parseCliHistory, parseHooksLog } from './small-logs.js';
import { parseTaskIndex, parseTaskMetadata } from './task-files.js';
import { parseUiMessages } from './ui-parser.js';

interface Spec {
  name: string;
  patterns: string[];
  wants: (rel: string) => boolean;
  /** Reads a file the catalog flags secret, for its non-credential fields only. */
  secret?: boolean;
  /** Repeats what a primary log holds (dropped by dedup when it does). */
  secondary?: boolean;
  parse: (a: Artifact, ctx: ParseContext) => AsyncIterable<Row>;
}

function parser(profile: ClineFamilyProfile, s: Spec): Parser {
  return {
    agent: profile.agent,
    name: s.name,
    patterns: s.patterns,
    wants: s.wants,
    secondary: (rel) => s.secondary === true && s.wants(rel),
    // Index entries carry the last activity, not the event's time: a wide window, and undated prompts join any copy.
    secondaryToleranceSeconds: () => 24 * 3600,
    recordsSync: false,
    readsSecretFile: (rel) => s.secret === true && s.wants(rel),
    parse: s.parse,
  };
}

/**
 * The parsers of one member of the Cline family, instantiated from its profile: Cline, Roo Code
 * and Kilo Code run the same code under their own agent id, extension folder and settings keys.
 */
export function familyParsers(profile: ClineFamilyProfile): Parser[] {
  const p = new ClinePaths(profile);
  const ext = `<editor User>/globalStorage/${profile.extensionId}`;
  const roots = [ext, ...profile.extraRoots.map((r) => `~/${r}`)];
  const inRoots = (rest: string) => roots.map((r) => `${r}/${rest}`);
  const taskIs = (file: string) => (rel: string) => p.task(rel)?.file === file;
  const taskId = (a: Artifact) => p.task(a.rel)?.taskId ?? '';
  const parsers: Parser[] = [
    parser(profile, { name: 'ui-messages', patterns: inRoots('tasks/<id>/ui_messages.json'), wants: taskIs('ui'), parse: (a, ctx) => parseUiMessages(a, ctx, taskId(a)) }),
    parser(profile, { name: 'api-history', patterns: inRoots('tasks/<id>/{api_conversation_history,claude_messages}.json'), wants: taskIs('api'), parse: (a, ctx) => parseApiHistory(a, ctx, taskId(a)) }),
    parser(profile, { name: 'task-metadata', patterns: inRoots('tasks/<id>/task_metadata.json'), wants: taskIs('metadata'), secondary: true, parse: (a, ctx) => parseTaskMetadata(a, ctx, taskId(a)) }),
    parser(profile, {
      name: 'task-index',
      patterns: [...inRoots('state/taskHistory.json'), ...inRoots('tasks/_index.json'), ...inRoots('tasks/<id>/history_item.json')],
      wants: (rel) => p.isTaskIndex(rel) || p.task(rel)?.file === 'history_item',
      secondary: true,
      parse: parseTaskIndex,
    }),
    parser(profile, {
      name: 'mcp-settings',
      patterns: [...inRoots(`settings/{${profile.mcpSettings.join(',')}}`), ...profile.projectMcp.map((f) => `<project>/${f}`)],
      wants: (rel) => p.isMcpSettings(rel) || p.isProjectMcp(rel),
      secret: true,
      parse: parseMcpSettings,
    }),
    parser(profile, {
      name: 'global-state',
      patterns: ['<editor User>/globalStorage/state.vscdb (ItemTable row of the extension)', ...profile.stateFiles.map((f) => `~/${f}`)],
      wants: (rel) => p.isStateDb(rel) || p.isStateFile(rel),
      secret: true,
      parse: (a, ctx) => (p.isStateDb(a.rel) ? parseStateDb(a, ctx, profile) : parseStateFile(a, ctx, profile)),
    }),
  ];
  if (profile.cliHistory.length > 0) {
    parsers.push(parser(profile, { name: 'cli-history', patterns: profile.cliHistory.map((f) => `~/${f}`), wants: (rel) => p.isCliHistory(rel), secondary: true, parse: (a) => parseCliHistory(a) }));
  }
  if (profile.sdkStore) {
    parsers.push(
      parser(profile, { name: 'sdk-messages', patterns: ['~/.cline/data/sessions/<id>/<id or agent>.messages.json'], wants: (rel) => !!p.sdkMessages(rel), parse: (a, ctx) => parseSdkMessages(a, ctx, p.sdkMessages(a.rel)?.sessionId ?? '') }),
      parser(profile, { name: 'sdk-manifest', patterns: ['~/.cline/data/sessions/<id>/<id>.json'], wants: (rel) => !!p.sdkManifest(rel), secondary: true, parse: (a, ctx) => parseSdkManifest(a, ctx, p.sdkManifest(a.rel) ?? '') }),
      parser(profile, { name: 'sdk-db', patterns: ['~/.cline/data/db/sessions.db (+ -wal)'], wants: (rel) => p.isSdkDb(rel), secondary: true, parse: parseSdkDb }),
      parser(profile, { name: 'hooks-log', patterns: ['~/.cline/data/logs/hooks.jsonl'], wants: (rel) => p.isHooksLog(rel), parse: parseHooksLog }),
      parser(profile, { name: 'providers', patterns: ['~/.cline/data/settings/providers.json'], wants: (rel) => p.isProviders(rel), secret: true, parse: (a) => parseProviders(a) }),
    );
  }
  return parsers;
}
