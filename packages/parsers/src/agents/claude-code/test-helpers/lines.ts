/** Synthetic transcript lines in the 2.1.143 envelope, for focused tests. */

/** The session id the focused tests use. */
export const SID = '11111111-0000-4000-8000-000000000001';
/** A main transcript path for {@link SID}. */
export const MAIN_REL = `.claude/projects/-srv-app/${SID}.jsonl`;

let n = 0;

/** A chain line: envelope plus the given keys (a fresh uuid unless one is given). */
export function chain(type: string, extra: Record<string, unknown>, t = '2026-10-01T10:00:00.000Z'): Record<string, unknown> {
  n += 1;
  return {
    parentUuid: null,
    isSidechain: false,
    type,
    uuid: `u-${n}`,
    timestamp: t,
    userType: 'external',
    entrypoint: 'cli',
    cwd: '/srv/app',
    sessionId: SID,
    version: '2.1.143',
    gitBranch: 'main',
    ...extra,
  };
}

/** A user line with the given content. */
export const user = (content: unknown, extra: Record<string, unknown> = {}, t?: string) => chain('user', { message: { role: 'user', content }, ...extra }, t);

/** An assistant line with the given content blocks. */
export const assistant = (content: unknown[], extra: Record<string, unknown> = {}, id = 'msg_1', model = 'claude-opus-4-7', t?: string) =>
  chain('assistant', { message: { model, id, type: 'message', role: 'assistant', content }, requestId: `req_${id}`, ...extra }, t);

/** A JSONL body: one object per line, newline-terminated. */
export const jsonl = (...objs: unknown[]) => objs.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))).join('\n') + '\n';
