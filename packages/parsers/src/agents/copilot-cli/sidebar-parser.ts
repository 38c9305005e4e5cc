import { asString } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser, describeJson, readJsonObject } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';

const EXPECTED = '{"cwd": <path>, "sessionIds": [<uuid>, ...]}';

/**
 * sidebar-sessions-state/<sha256 of cwd>.json: no rows, only the last-resort project of each
 * listed session (cwd fact, priority 4), which outlives a removed project. A file that is not
 * the expected shape gives one unreadable row.
 */
export const copilotSidebarParser: Parser = copilotParser({
  name: 'sidebar-sessions',
  patterns: COPILOT_PATTERNS.sidebar,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseSidebar,
});

async function* parseSidebar(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, EXPECTED, { ctx, key: 'sessionIds' });
  if ('row' in r) {
    yield r.row;
    return;
  }
  const cwd = asString(r.value.cwd) ?? '';
  const ids = r.value.sessionIds;
  if (cwd === '' || !Array.isArray(ids)) {
    const found = cwd === '' ? `cwd as ${describeJson(r.value.cwd ?? null)}` : `sessionIds as ${describeJson(ids ?? null)}`;
    yield unreadableRow(`expected JSON ${EXPECTED}, found ${found}`);
    return;
  }
  for (let i = 0; i < ids.length; i++) {
    const id = asString(ids[i]);
    if (id) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 4 });
    else ctx.warn(`sidebar sessionIds[${i}]: expected a session id, found ${describeJson(ids[i])}`, i + 1);
  }
}
