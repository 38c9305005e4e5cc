import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRows } from './messages.js';
import { toolUseRow } from './tool-keys.js';
import { pushAll } from '../../sdk/push-all.js';

// A block begins with `user:` or `assistant:` (`A:` in some builds) alone on a line, at the top of
// the file or after a blank line; items inside an assistant block begin with a bracketed marker.
const BLOCK = /^(user|assistant|A):\s*$/;
const MARKER = /^\[(Tool call|Tool result|Thinking)\](?: (.*))?$/;
// A tool call's arguments: `  name: value`, a value running on over the lines below it.
const ARG = /^ {2}([A-Za-z_][\w.-]*):(?: (.*))?$/;

type Item = { kind: 'text'; line: number; lines: string[] } | { kind: 'thinking'; line: number; lines: string[] } | { kind: 'call'; line: number; name: string; args: [string, string[]][] } | { kind: 'result'; line: number; name: string; lines: string[] };

const trimBlank = (s: string) => s.replace(/^(?:[ \t]*\n)+/, '').replace(/\n[\s]*$/, '').replace(/^\s*$/, '');

class TxtState {
  role: 'user' | 'assistant' | '' = '';
  start = 0;
  userLines: string[] = [];
  item: Item | undefined;
  prevBlank = true;
  openQuery = false;
  stray: { line: number; text: string } | undefined;

  constructor(
    private readonly fields: Partial<Row>,
    private readonly ctx: ParseContext,
  ) {}

  private itemRows(): Row[] {
    const it = this.item;
    this.item = undefined;
    if (!it) return [];
    const f = { ...this.fields, source_line: it.line };
    if (it.kind === 'text') {
      const t = trimBlank(it.lines.join('\n'));
      return t ? [makeRow('assistant', t, f)] : [];
    }
    if (it.kind === 'thinking') {
      const t = trimBlank(it.lines.join('\n'));
      return this.ctx.options.includeThinking && t ? [makeRow('thinking', t, f)] : [];
    }
    if (it.kind === 'call') {
      const args = Object.fromEntries(it.args.map(([k, v]) => [k, trimBlank(v.join('\n'))]));
      return [toolUseRow(it.name, args, f)];
    }
    // `[Tool result] <name>` lines carry no content in the files seen; a result with text gives a row.
    const t = trimBlank(it.lines.join('\n'));
    return t ? [makeRow('tool_result', t, { ...f, tool_name: it.name })] : [];
  }

  /** Close the open block: a user block's query (and its wrappers), or the assistant's last item. */
  flush(): Row[] {
    if (this.role === 'user') {
      const rows = messageRows('user', trimBlank(this.userLines.join('\n')), { fields: { ...this.fields, source_line: this.start }, ctx: this.ctx, kindPrefix: 'transcript', line: this.start });
      this.userLines = [];
      return rows;
    }
    return this.itemRows();
  }

  line(n: number, text: string): Row[] {
    const out: Row[] = [];
    const block = BLOCK.exec(text);
    if (block && this.prevBlank && !this.openQuery) {
      pushAll(out, this.flush());
      this.role = block[1] === 'user' ? 'user' : 'assistant';
      this.start = n;
      this.prevBlank = false;
      return out;
    }
    this.prevBlank = text.trim() === '';
    if (this.role === '') {
      if (!this.prevBlank && !this.stray) this.stray = { line: n, text };
      return out;
    }
    if (this.role === 'user') {
      if (/<user_query>/.test(text)) this.openQuery = true;
      if (/<\/user_query>/.test(text)) this.openQuery = false;
      this.userLines.push(text);
      return out;
    }
    const m = MARKER.exec(text);
    if (m) {
      pushAll(out, this.itemRows());
      const rest = m[2] ?? '';
      if (m[1] === 'Tool call') this.item = { kind: 'call', line: n, name: rest.trim(), args: [] };
      else if (m[1] === 'Tool result') this.item = { kind: 'result', line: n, name: rest.trim(), lines: [] };
      else this.item = { kind: 'thinking', line: n, lines: rest ? [rest] : [] };
      return out;
    }
    if (!this.item) this.item = { kind: 'text', line: n, lines: [] };
    const it = this.item;
    if (it.kind === 'call') {
      const arg = ARG.exec(text);
      if (arg) it.args.push([arg[1], [arg[2] ?? '']]);
      else if (it.args.length > 0) it.args[it.args.length - 1][1].push(text);
    } else if (it.kind === 'thinking' && text.trim() === '') {
      // A thinking block ends at its first blank line; what follows is the reply's text.
      pushAll(out, this.itemRows());
    } else it.lines.push(text);
    return out;
  }
}

/**
 * A `.txt` agent transcript (Cursor before about February 2026): `user:` blocks holding the
 * `<user_query>`, `assistant:` blocks of text, `[Thinking]`, `[Tool call] <name>` with indented
 * `key: value` arguments (a value runs on until the next argument or marker), and `[Tool result]`
 * markers. Streamed line by line; text before the first block is one bad-line row.
 */
export async function* parseTxtTranscript(a: Artifact, fields: Partial<Row>, ctx: ParseContext): AsyncGenerator<Row> {
  const st = new TxtState(fields, ctx);
  for await (const l of readLines(a.stream())) {
    if (l.error) {
      yield badLineRow(l.error, l.text, l.line, { session_id: fields.session_id });
      continue;
    }
    yield* st.line(l.line, l.text);
  }
  yield* st.flush();
  if (st.stray) yield badLineRow('text before the first user: or assistant: block', st.stray.text, st.stray.line, { session_id: fields.session_id });
}
