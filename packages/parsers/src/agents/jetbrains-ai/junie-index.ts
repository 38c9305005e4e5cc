/**
 * Junie's session index, `~/.junie/sessions/index.jsonl`: `{sessionId, createdAt, updatedAt,
 * projectDir, taskName}` per line (epoch ms), a session possibly on several lines. No rows of its
 * own: each line gives the session's project and name as facts (below the session log's own).
 */
import { asString } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

const str = (v: unknown): string => asString(v) ?? '';

/** Facts from each line; a line that is not JSON is a bad_line row. */
export async function* parseJunieIndex(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!o) {
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line);
      continue;
    }
    const id = str(o.sessionId);
    if (!id) continue;
    if (str(o.projectDir)) ctx.fact({ session_id: id, key: 'cwd', value: str(o.projectDir), priority: 2 });
    if (str(o.taskName)) ctx.fact({ session_id: id, key: 'name', value: str(o.taskName), priority: 2 });
  }
}
