import { readLines } from '../../sdk/line-reader.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { vscodeParser } from './common.js';
import { DATA_PATTERNS } from './paths.js';

// VS Code's log line: local time without an offset, then the level (inferred from the real logs).
const LINE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) \[(\w+)\] (.*)$/;
const SIGNED_IN = /^Logged in as (\S+)/;
const FAILED = /^GitHub login failed\b/;

/**
 * <D>/logs/<launch>/window<n>/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log: the extension's
 * output channel. Only its sign-in lines give rows: `signed in: <login> (log time <local time>)`
 * for "Logged in as <login>" and `sign-in failed (log time <local time>)` for "GitHub login failed"
 * (both seen in real logs, Copilot Chat 0.30.3 and 0.33.1). The times are local with no offset, so
 * the rows are undated: the log time stays in the text for the investigator to place.
 */
export const vscodeLogParser = vscodeParser({
  name: 'extension-log',
  data: DATA_PATTERNS.log,
  secondary: () => false,
  toleranceSeconds: () => 0,
  parse: async function* (a: Artifact): AsyncGenerator<Row> {
    try {
      for await (const l of readLines(a.stream())) {
        const m = LINE.exec(l.text);
        if (!m) continue;
        const login = SIGNED_IN.exec(m[3]);
        if (login) yield makeRow('system', `signed in: ${login[1]} (log time ${m[1]})`, { source_line: l.line, tag: 'signed_in' });
        else if (FAILED.test(m[3])) yield makeRow('system', `sign-in failed (log time ${m[1]})`, { source_line: l.line, tag: 'sign_in_failed' });
      }
    } catch (e) {
      yield unreadableRow(`could not read the log: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  },
});
