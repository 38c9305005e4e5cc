import { compactJson } from '../../sdk/compact-json.js';
import { badLineRow, makeRow, unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser, describeJson, readJsonObject } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';

const EXPECTED = '{"commandHistory": [<string>, ...]}';

/**
 * command-history-state.json, the Ctrl+R prompt history: one undated user row per entry,
 * newest first, slash commands included; no session, time or directory. Secondary. Its rows
 * are undated, and an undated row joins a cluster whatever the tolerance (DESIGN, Deduplication
 * rule 3), so the tolerance is 0: there is no time to compare. A file cut mid-write keeps its
 * complete entries, with a warning (readJsonObject's salvage).
 */
export const copilotHistoryParser: Parser = copilotParser({
  name: 'command-history',
  patterns: COPILOT_PATTERNS.history,
  secondary: true,
  toleranceSeconds: 0,
  parse: parseHistory,
});

async function* parseHistory(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, EXPECTED, { ctx, key: 'commandHistory' });
  if ('row' in r) {
    yield r.row;
    return;
  }
  const list = r.value.commandHistory;
  if (!Array.isArray(list)) {
    yield unreadableRow(`expected JSON ${EXPECTED}, found commandHistory as ${list === undefined ? 'absent' : describeJson(list)}`);
    return;
  }
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    // source_line is the 1-based position in the list: 1 is the newest entry.
    if (typeof entry === 'string') yield makeRow('user', entry, { source_line: i + 1 });
    else yield badLineRow(`expected a string, found ${describeJson(entry)}`, compactJson(entry), i + 1);
  }
}
