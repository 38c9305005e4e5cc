import { posix } from 'node:path';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRows } from './content.js';
import { sessionRows } from './session.js';

/**
 * A session written before sessions.db (session/legacy.rs): line 1 the session metadata
 * (`working_dir`, `description`, `schedule_id`, token counters, `extension_data`), then one
 * Message per line (`role`, `created` epoch seconds, `content`, `metadata`). The session id is the
 * file name, as goose's import used it, so a session also imported into the database gives the
 * same rows there and this copy is dropped (copyRank). A first line that is already a message
 * (legacy.rs accepts that) is read as one.
 */
export async function* parseGooseLegacy(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const id = posix.basename(a.rel).replace(/\.jsonl$/, '');
  const tools = new Map<string, string>();
  let cwd = '';
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!isObject(o)) {
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, { session_id: id });
      continue;
    }
    if (l.line === 1 && !Array.isArray(o.content) && o.role === undefined) {
      cwd = asString(o.working_dir) ?? '';
      yield* sessionRows({ id, name: asString(o.name) || asString(o.description) || '', userSetName: o.user_set_name === true, type: asString(o.session_type) ?? '', workingDir: cwd, created: toUtc(o.created_at), scheduleId: asString(o.schedule_id) ?? '', recipe: o.recipe, extensionData: o.extension_data }, 1, ctx);
      continue;
    }
    if (!Array.isArray(o.content)) {
      ctx.unknown(`line without content ${Object.keys(o).sort().slice(0, 6).join(',')}`, l.line);
      continue;
    }
    const meta = isObject(o.metadata) ? (o.metadata as JsonObject) : {};
    yield* messageRows({ sessionId: id, role: asString(o.role) ?? '', created: toUtc(o.created), content: o.content, metadata: meta, line: l.line, projectPath: cwd }, tools, ctx);
  }
}
