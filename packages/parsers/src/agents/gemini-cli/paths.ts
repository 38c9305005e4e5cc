import type { FamilyProfile } from './profile.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The CLI sets a file aside as `<file>.unreadable-<ms>` (corrupt) or leaves `<file>.tmp-<pid>`
// after a crash; both are the same format and kept as evidence.
const SET_ASIDE = String.raw`(?:\.unreadable-\d+|\.tmp-\d+)?`;

/** The path rules of one family member, compiled once from its profile. Case-insensitive: Windows and macOS homes fold case. */
export class FamilyPaths {
  /** Main chats `tmp/<id>/chats/session-*.json(l)` and Qwen's `projects/<p>/chats/<id>.jsonl`. */
  readonly chat: RegExp;
  /** Subagent chats: `tmp/<id>/chats/<parent>/<id>.json(l)`, Qwen's `projects/<p>/subagents/<sid>/agent-*.jsonl`. */
  readonly subChat: RegExp;
  readonly logs: RegExp;
  readonly shellHistory: RegExp;
  /** `/chat save` snapshots, `checkpoint-<tag>.json`. */
  readonly chatCheckpoint: RegExp;
  /** Restore points, `checkpoints/<time>-<file>-<tool>.json`. */
  readonly restoreCheckpoint: RegExp;
  /** settings.json: home and project (same rel), and the system files. */
  readonly settings: RegExp;
  readonly trustedFolders: RegExp;
  readonly policies: RegExp;
  readonly accounts: RegExp;
  /** The shadow repository's reflog, `history/<id>/.git/logs/HEAD`. */
  readonly reflog: RegExp;
  /** Qwen Code's per-run usage summaries. */
  readonly usage: RegExp;

  constructor(readonly profile: FamilyProfile) {
    const d = esc(profile.dir);
    const tmp = profile.layouts.includes('tmp');
    const proj = profile.layouts.includes('projects');
    const alt = (...xs: (string | false)[]) => new RegExp(`^(?:${xs.filter(Boolean).join('|')})$`, 'i');
    this.chat = alt(tmp && String.raw`${d}/tmp/[^/]+/chats/[^/]+\.jsonl?${SET_ASIDE}`, proj && String.raw`${d}/projects/[^/]+/chats/[^/]+\.jsonl${SET_ASIDE}`);
    this.subChat = alt(tmp && String.raw`${d}/tmp/[^/]+/chats/[^/]+/[^/]+\.jsonl?${SET_ASIDE}`, proj && String.raw`${d}/projects/[^/]+/subagents/[^/]+/agent-[^/]+\.jsonl`);
    this.logs = new RegExp(String.raw`^${d}/tmp/[^/]+/logs\.json(?:\.[^/]+\.bak)?$`, 'i');
    this.shellHistory = new RegExp(`^${d}/tmp/[^/]+/shell_history$`, 'i');
    this.chatCheckpoint = new RegExp(String.raw`^${d}/tmp/[^/]+/checkpoint-[^/]+\.json$`, 'i');
    this.restoreCheckpoint = new RegExp(String.raw`^${d}/tmp/[^/]+/checkpoints/[^/]+\.json$`, 'i');
    const sys = profile.systemDirs.map((s) => esc(s)).join('|');
    this.settings = new RegExp(String.raw`^(?:${d}/settings\.json|(?:${sys})/(?:settings|system-defaults)\.json)$`, 'i');
    this.trustedFolders = new RegExp(String.raw`^${d}/trustedFolders\.json$`, 'i');
    this.policies = new RegExp(String.raw`^(?:${d}|${sys})/policies/[^/]+\.toml$`, 'i');
    this.accounts = new RegExp(String.raw`^${d}/google_accounts\.json$`, 'i');
    this.reflog = new RegExp(String.raw`^${d}/history/[^/]+/\.git/logs/HEAD$`, 'i');
    this.usage = new RegExp(String.raw`^${d}/usage_record\.jsonl$`, 'i');
  }

  /** The project directory's name (`tmp/<id>` or `projects/<p>`), '' when the rel is elsewhere. */
  projectDirName(rel: string): string {
    const parts = rel.split('/');
    return parts.length > 2 && /^(?:tmp|projects|history)$/i.test(parts[1]) ? parts[2] : '';
  }

  /** True for a chat (main or subagent) kept under a 64-hex project directory: written before the slug migration (v0.29). */
  underHashDir(rel: string): boolean {
    return isProjectHash(this.projectDirName(rel));
  }

  /**
   * For a subagent chat, the directory that ties it to its parent: the parent's session id
   * (`chats/<parent>/`, Qwen's `subagents/<parent>/`) or a background run such as
   * `skill-extraction-<8 hex>`; '' for a main chat.
   */
  parentDir(rel: string): string {
    if (!this.subChat.test(rel)) return '';
    const parts = rel.split('/');
    return parts[parts.length - 2];
  }

  /** Files under a 64-hex project directory are the copies the slug migration left behind: they yield to the slug directory's (Parser.copyRank). */
  copyRank(rel: string): number {
    return this.underHashDir(rel) ? 2 : 0;
  }

  /** How far `rel` is below its project directory, as `../` steps back to the state directory. */
  toStateDir(rel: string): string {
    const depth = rel.split('/').length - 2;
    return '../'.repeat(depth);
  }
}

/** True for a project directory named by the sha256 of its root (before v0.29). */
export function isProjectHash(name: string): boolean {
  return /^[0-9a-f]{64}$/i.test(name);
}

/** A `skill-extraction-<hex>` (or similar) directory under chats/ is a background run, not a parent session. */
export function isBackgroundRunDir(name: string): boolean {
  return /^skill-extraction-/i.test(name);
}
