/**
 * Letta Code's files (letta-ai/letta-code src/agent/session-history.ts,
 * src/utils/local-backend-paths.ts, src/backend/local/local-store.ts, src/cli/helpers/chunk-log.ts):
 * everything under `~/.letta` on every OS (`LETTA_HOME`; `LETTA_LOCAL_BACKEND_DIR` moves the
 * local store, which the catalog maps back to `.letta/lc-local-backend`).
 */
export const LETTA_PATHS = {
  /** A local-backend conversation transcript (pi session entries). */
  transcript: /^\.letta\/lc-local-backend\/conversations\/[^/]+\/messages\.jsonl$/,
  /** One summary line per session, both backends. */
  sessions: /^\.letta\/sessions\.jsonl$/,
  /** The last stream chunks of a session, cut to 200 characters each. */
  chunkLog: /^\.letta\/logs\/chunk-logs\/[^/]+\/[^/]+\.jsonl$/,
};
