import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

/** rustyline's V2 history escapes a backslash and a newline inside an entry (`\\`, `\n`). */
function unescapeV2(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/**
 * `~/.aws/amazonq/.cli_bash_history`: `q chat`'s rustyline prompt history, one prompt per line,
 * oldest first, no time, no directory, every conversation mixed. A `#V2` first line means entries
 * are escaped. Undated user rows, secondary: a prompt the conversations also hold is dropped as a
 * copy (an undated row joins a cluster whatever the tolerance, so the tolerance is 0).
 */
export async function* parseQHistory(a: Artifact, _ctx: ParseContext): AsyncGenerator<Row> {
  let v2 = false;
  for await (const l of readLines(a.stream())) {
    if (l.line === 1 && l.text === '#V2') {
      v2 = true;
      continue;
    }
    if (l.error !== undefined) {
      yield badLineRow(l.error, l.text, l.line);
      continue;
    }
    if (l.text.trim() === '') continue;
    yield makeRow('user', v2 ? unescapeV2(l.text) : l.text, { source_line: l.line });
  }
}
