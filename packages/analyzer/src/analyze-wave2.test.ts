import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentPlugin, type Artifact, makeRow, mcpServersFromConfig, type Parser, type Row } from '@aitrail/parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { makeCollectionDir } from './test-helpers/make-collection.js';

// The SDK contracts of DESIGN "Many agents (wave 2)" through a whole analysis: cwd as of the row,
// unknown record kinds, MCP servers, a file two agents claim, a mixed store given up.

const root = mkdtempSync(join(tmpdir(), 'aitrail-wave2-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const OPAQUE = 'x9Rk2mW7qLp4Zt8Vn3Bc6Yd1Hf5Js0Ga';

async function text(a: Artifact): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of a.stream()) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function parser(agent: string, name: string, re: RegExp, parse: Parser['parse'], extra: Partial<Parser> = {}): Parser {
  return { agent, name, patterns: [re.source], wants: (rel) => re.test(rel), secondary: () => false, secondaryToleranceSeconds: () => 0, recordsSync: false, parse, ...extra };
}

/** One line per record: {ts, cwd} moves the session, {ts, kind} is a known or unknown kind. */
const logParser = parser('wave-agent', 'log', /^\.wave\/s1\.jsonl$/, async function* (a, ctx) {
  let n = 0;
  for (const l of (await text(a)).split('\n')) {
    n++;
    if (!l) continue;
    const v = JSON.parse(l) as { ts: string; cwd?: string; kind?: string; text?: string };
    if (v.cwd) ctx.fact({ session_id: 's1', key: 'cwd', value: v.cwd, priority: 1, at: v.ts });
    else if (v.kind === 'say') yield makeRow('user', v.text ?? '', { timestamp_utc: v.ts, session_id: 's1', source_line: n });
    else ctx.unknown(v.kind ?? '', n);
  }
});

const mcpParser = parser('wave-agent', 'mcp', /^\.wave\/mcp\.json$/, async function* (a, ctx) {
  for (const s of mcpServersFromConfig(JSON.parse(await text(a)), { scope: 'user' })) ctx.mcp(s);
  // A config gives servers, not rows.
  yield* [];
});

const cacheParser = parser('wave-agent', 'cache', /^\.wave\/tools\.json$/, async function* (a, ctx) {
  ctx.mcp({ name: 'github', scope: '', tools: [{ name: 'delete_repo', annotations: { destructiveHint: true } }] });
  ctx.mcp({ name: 'github', scope: '', failure: { timestamp_utc: '2026-10-01T09:00:00.000Z', message: `spawn failed with ${TOKEN} in argv` }, line: 3 });
  ctx.mcp({ name: 'ghost', scope: '', failure: { timestamp_utc: '2026-10-01T09:00:01.000Z', message: 'ENOENT' } });
  yield makeRow('system', `tools read: ${a.rel}`, { timestamp_utc: '2026-10-01T09:00:00.000Z', tag: 'mcp_failure' });
});

/** Reads a shared file (claimed by both agents) and a mixed store it opts in to. */
const sharedReader = (agent: string) =>
  parser(agent, 'shared', /^\.shared\/(state|mixed)\.db$/, async function* (a) {
    yield makeRow('system', `${agent} read ${a.rel}`, { timestamp_utc: '2026-10-01T10:00:00.000Z' });
  }, { readsSecretFile: (rel) => rel === '.shared/mixed.db' });

const wave: AgentPlugin = { agent: 'wave-agent', parsers: [logParser, mcpParser, cacheParser, sharedReader('wave-agent')] };
const other: AgentPlugin = { agent: 'other-agent', parsers: [sharedReader('other-agent')] };

describe('wave-2 SDK contracts through analyze', async () => {
  const input = join(root, 'in');
  const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  makeCollectionDir(input, [
    {
      agent: 'wave-agent',
      rel: '.wave/s1.jsonl',
      content: lines([
        { ts: '2026-10-01T09:00:00.000Z', kind: 'say', text: 'before any cwd' },
        { ts: '2026-10-01T09:00:01.000Z', cwd: '/srv/alpha' },
        { ts: '2026-10-01T09:00:02.000Z', kind: 'say', text: 'in alpha' },
        { ts: '2026-10-01T09:00:03.000Z', cwd: '/srv/beta' },
        { ts: '2026-10-01T09:00:04.000Z', kind: 'say', text: 'in beta' },
        { ts: '2026-10-01T09:00:05.000Z', kind: 'new.kind' },
        { ts: '2026-10-01T09:00:06.000Z', kind: 'new.kind' },
        { ts: '2026-10-01T09:00:07.000Z', kind: '__proto__' },
      ]),
    },
    {
      agent: 'wave-agent',
      rel: '.wave/mcp.json',
      secret: true,
      content: JSON.stringify({
        mcpServers: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal reference, as a config holds it
          github: { command: 'npx', args: ['-y', '@mcp/github', '--token', TOKEN], env: { GITHUB_TOKEN: TOKEN, DEBUG: '1', REF: '${env:X}' } },
          api: { type: 'http', url: `https://api.example/mcp?api_key=${OPAQUE}`, headers: { Authorization: `Bearer ${OPAQUE}` } },
        },
      }),
    },
    { agent: 'wave-agent', rel: '.wave/tools.json', content: '{}' },
    { agent: 'wave-agent', rel: '.shared/state.db', content: 'x', manifest: { agents: ['wave-agent', 'other-agent'] } },
    { agent: 'wave-agent', rel: '.shared/mixed.db', content: 'x', secret: true, omit: true, manifest: { status: 'skipped_secret', archive_path: '', reason: 'secret: hashed, not archived (--secrets hash)' } },
  ]);
  // mcp.json is read by an opted-in parser only: let the mcp parser take it.
  mcpParser.readsSecretFile = (rel) => rel === '.wave/mcp.json';
  const out = join(root, 'out');
  await analyze({ inputs: [input], out, plugins: [wave, other] });
  const timeline = readFileSync(join(out, 'timeline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row & { agent: string });
  const sessions = readFileSync(join(out, 'sessions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const inventory = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
  const waveInv = inventory.homes[0].agents.find((a: { agent: string }) => a.agent === 'wave-agent');
  const otherInv = inventory.homes[0].agents.find((a: { agent: string }) => a.agent === 'other-agent');

  it('gives each row the cwd in force at its time: the first report for earlier rows', () => {
    const said = Object.fromEntries(timeline.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.project_path]));
    expect(said).toEqual({ 'before any cwd': '/srv/alpha', 'in alpha': '/srv/alpha', 'in beta': '/srv/beta' });
  });

  it('lists every directory a session worked in, in sessions.jsonl and as inventory projects', () => {
    const s1 = sessions.find((s) => s.session_id === 's1');
    expect(s1.project_path).toBe('/srv/beta');
    expect(s1.project_paths).toEqual(['/srv/alpha', '/srv/beta']);
    expect(waveInv.projects).toEqual(['/srv/alpha', '/srv/beta']);
  });

  it('counts unknown record kinds per parser and kind, one warning per file and kind', () => {
    expect(JSON.stringify(waveInv.unknown_records)).toBe('{"wave-agent/log":{"__proto__":1,"new.kind":2}}');
    expect(Object.keys(waveInv.unknown_records['wave-agent/log'])).toEqual(['__proto__', 'new.kind']);
    const warned = waveInv.parse_warnings.filter((w: { message: string }) => w.message.startsWith('unknown record kind'));
    expect(warned.map((w: { line: number }) => w.line)).toEqual([6, 8]);
    expect(inventory.totals.unknown_records).toBe(3);
  });

  it('lists MCP servers with key names only, attaches cached tools and failures by name, and keeps a log-only server', () => {
    const byName = Object.fromEntries(waveInv.mcp_servers.map((s: { name: string }) => [s.name, s]));
    expect(Object.keys(byName)).toEqual(['api', 'ghost', 'github']);
    expect(byName.github).toMatchObject({ scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@mcp/github', '--token', '[REDACTED]'], env_keys: ['DEBUG', 'GITHUB_TOKEN', 'REF'], file: 'homes/sean/.wave/mcp.json', tools_file: 'homes/sean/.wave/tools.json', failures_total: 1 });
    expect(byName.github.tools).toEqual([{ name: 'delete_repo', annotations: { destructiveHint: true } }]);
    expect(byName.github.failures[0].message).toBe('spawn failed with [REDACTED] in argv');
    expect(byName.api).toMatchObject({ transport: 'http', url: 'https://api.example/mcp?api_key=[REDACTED]', header_keys: ['Authorization'] });
    expect(byName.ghost).toMatchObject({ scope: '', file: 'homes/sean/.wave/tools.json', failures_total: 1 });
    expect(inventory.totals.mcp_servers).toBe(3);
  });

  it('makes every credential an MCP config holds a finding with its key, never the value', () => {
    const mcp = waveInv.credential_findings.filter((f: { server?: string }) => f.server);
    expect(mcp.map((f: { key: string; kind: string; preview: string }) => `${f.key} ${f.kind} ${f.preview}`).sort()).toEqual([
      'arg:--token github_token ghp_…',
      'env:GITHUB_TOKEN github_token ghp_…',
      'header:Authorization bearer_token Bear…',
      'url:?api_key mcp_url_value x9Rk…',
    ]);
    for (const f of readdirSync(out)) {
      const body = readFileSync(join(out, f), 'utf8');
      expect(body.includes(TOKEN), f).toBe(false);
      expect(body.includes(OPAQUE), f).toBe(false);
    }
  });

  it('reads a file two agents claim with each agent’s parsers, and counts it once in the totals', () => {
    const reads = timeline.filter((r) => r.text.endsWith('read .shared/state.db')).map((r) => `${r.agent}: ${r.text}`);
    expect(reads).toEqual(['wave-agent: wave-agent read .shared/state.db', 'other-agent: other-agent read .shared/state.db']);
    expect(otherInv.artifacts).toBe(1);
    expect(inventory.totals.artifacts).toBe(4);
  });

  it('says which conversations a mixed store not archived gave up', () => {
    expect(waveInv.not_parsed).toEqual([{ file: '/home/sean/.shared/mixed.db', reason: expect.stringMatching(/^a store that holds conversations beside credentials was not archived \(secret: hashed, not archived \(--secrets hash\)\): the conversations it holds \(read by wave-agent\/shared\) are not in the timeline/) }]);
  });
});
