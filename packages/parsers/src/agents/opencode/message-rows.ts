import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import type { MessageInfo } from './message-info.js';
import type { PartBase } from './parts.js';

/**
 * The rows a message gives by itself, before its parts: an assistant's error (`error: <name>:
 * <message>`), and, when `models` follows the session in order (the database, not the legacy
 * one-file-per-message store), `model: <new>` for the session's first model and
 * `model: <old> -> <new>` when a later message names another.
 */
export function messageRows(msg: MessageInfo, base: PartBase, models?: Map<string, string>): Row[] {
  const rows: Row[] = [];
  const f = { ...base, timestamp_utc: msg.created };
  if (models && msg.model) {
    const old = models.get(msg.sessionId);
    if (old !== msg.model) {
      const provider = msg.provider ? ` (${msg.provider})` : '';
      rows.push(makeRow('system', old ? `model: ${old} -> ${msg.model}${provider}` : `model: ${msg.model}${provider}`, { ...f, model: msg.model, tag: 'model' }));
      models.set(msg.sessionId, msg.model);
    }
  }
  if (msg.error) rows.push(makeRow('system', `error: ${msg.error}`, { ...f, model: msg.model, tag: 'error' }));
  return rows;
}
