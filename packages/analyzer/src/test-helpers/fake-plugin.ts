import type { AgentPlugin, Artifact, ParseContext, Parser, Row } from '@aitrail/parsers';
import { makeRow } from '@aitrail/parsers';

async function* lines(a: Artifact): AsyncGenerator<{ n: number; v: Record<string, string> }> {
  const chunks: Buffer[] = [];
  for await (const c of a.stream()) chunks.push(c);
  const text = Buffer.concat(chunks).toString('utf8');
  let n = 0;
  for (const l of text.split('\n')) {
    n++;
    if (l.trim()) yield { n, v: JSON.parse(l) };
  }
}

function parser(name: string, re: RegExp, secondary: boolean, parse: (a: Artifact, ctx: ParseContext) => AsyncIterable<Row>, recordsSync = false): Parser {
  return { agent: 'fake-agent', name, patterns: [re.source], wants: (rel) => re.test(rel), secondary: () => secondary, secondaryToleranceSeconds: () => (secondary ? 3600 : 0), recordsSync, parse };
}

/**
 * A test agent: `.fake/sessions/<id>.jsonl` logs (primary; a `cwd` line reports a fact),
 * `.fake/store.jsonl` (secondary copies), `.fake/history.json` (secondary, undated),
 * `.fake/boom.txt` (a parser that throws after one row).
 */
export const fakePlugin: AgentPlugin = {
  agent: 'fake-agent',
  parsers: [
    parser(
      'log',
      /^\.fake\/sessions\/[^/]+\.jsonl$/,
      false,
      async function* (a, ctx) {
        const session = a.rel.split('/').pop()!.replace(/\.jsonl$/, '');
        for await (const { n, v } of lines(a)) {
          if (v.cwd) {
            ctx.fact({ session_id: session, key: 'cwd', value: v.cwd, priority: 1 });
            continue;
          }
          if (v.warn) ctx.warn(v.warn, n);
          yield makeRow(v.type as Row['turn_type'], v.text, { timestamp_utc: v.ts ?? '', session_id: session, source_line: n, tag: v.tag, model: v.model ?? '', tool_name: v.tool ?? '' });
        }
      },
      true,
    ),
    parser('store', /^\.fake\/store\.jsonl$/, true, async function* (a, ctx) {
      for await (const { n, v } of lines(a)) {
        if (v.cwd) ctx.fact({ session_id: v.session, key: 'cwd', value: v.cwd, priority: 3 });
        else yield makeRow(v.type as Row['turn_type'], v.text, { timestamp_utc: v.ts ?? '', session_id: v.session ?? '', source_line: n });
      }
    }),
    parser('history', /^\.fake\/history\.json$/, true, async function* (a) {
      const chunks: Buffer[] = [];
      for await (const c of a.stream()) chunks.push(c);
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as string[];
      for (let i = 0; i < list.length; i++) yield makeRow('user', list[i], { source_line: i + 1 });
    }),
    {
      // Wants both flagged files but opts in to reading only settings.json.
      ...parser('settings', /^\.fake\/(secret|settings)\.json$/, false, async function* (a) {
        yield makeRow('system', `setting file read: ${a.rel}`, { timestamp_utc: '2026-10-01T08:00:00.000Z' });
      }),
      readsSecretFile: (rel: string) => rel === '.fake/settings.json',
    },
    parser('sibling', /^\.fake\/sessions\/[^/]+\.meta$/, false, async function* (a) {
      // Reads its session log beside it, and tries to reach a secret and a path outside the home.
      const log = a.sibling(a.rel.split('/').pop()!.replace(/\.meta$/, '.jsonl'));
      const local = log ? await log.localPath() : '';
      yield makeRow('system', `sibling: ${log?.rel ?? 'none'} local: ${local.endsWith('.jsonl')} secret: ${a.sibling('../settings.json') ? 'visible' : 'hidden'} outside: ${a.sibling('../../../../x') ? 'visible' : 'hidden'}`, { timestamp_utc: '2026-10-01T07:00:00.000Z' });
      yield { ...makeRow('system', 'odd turn type'), turn_type: 'banana' as Row['turn_type'] };
    }),
    parser('boom', /^\.fake\/boom\.txt$/, false, async function* () {
      yield makeRow('system', 'before the crash', { timestamp_utc: '2026-10-01T09:00:00.000Z' });
      throw new Error('synthetic parser bug');
    }),
  ],
};
