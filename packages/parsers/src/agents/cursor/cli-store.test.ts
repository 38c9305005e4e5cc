import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeMeta } from './cli-store.js';
import { protoFields, readRootBlob } from './protobuf.js';
import { parseFile, scratchHome } from './test-helpers/build.js';

const { dir, done } = scratchHome('cli');
afterAll(done);

function proto(field: number, bytes: Buffer): Buffer {
  const len: number[] = [];
  let n = bytes.length;
  do {
    len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n);
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...len]), bytes]);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
let n = 0;

interface StoreSpec {
  cwd?: string;
  hashOf?: string;
  meta?: string | null;
  messages: unknown[];
  root?: 'ok' | 'missing' | 'garbage';
  workspaceField?: string;
}

function store(s: StoreSpec): { home: string; rel: string } {
  const home = join(dir, `h${++n}`);
  const agent = `a${n}`;
  const rel = `.cursor/chats/${md5(s.hashOf ?? s.cwd ?? '/x')}/${agent}/store.db`;
  const file = join(home, rel);
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  const db = new Database(file);
  db.exec('CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);');
  const put = db.prepare('INSERT INTO blobs VALUES (?, ?)');
  const ids: string[] = [];
  for (const m of s.messages) {
    const b = Buffer.from(typeof m === 'string' ? m : JSON.stringify(m));
    ids.push(sha(b));
    put.run(sha(b), b);
  }
  let rootId = 'f'.repeat(64);
  if (s.root !== 'missing') {
    const rb = s.root === 'garbage' ? Buffer.from([0x0f, 0xff, 0xff]) : Buffer.concat([...ids.map((id) => proto(1, Buffer.from(id, 'hex'))), ...(s.workspaceField ? [proto(9, Buffer.from(s.workspaceField))] : [])]);
    rootId = sha(rb);
    put.run(rootId, rb);
  }
  const meta = JSON.stringify({ agentId: agent, latestRootBlobId: rootId, name: 'Chat', mode: 'default', createdAt: 1790845200000, lastUsedModel: 'gpt-5' });
  if (s.meta !== null) db.prepare('INSERT INTO meta VALUES (?, ?)').run('0', s.meta ?? Buffer.from(meta).toString('hex'));
  db.close();
  return { home, rel };
}

const query = (t: string) => ({ role: 'user', content: [{ type: 'text', text: `<user_query>\n${t}\n</user_query>` }] });

describe('protobuf root blob', () => {
  it('reads field 1 ids in order and field 9 as the workspace path', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    const r = readRootBlob(Buffer.concat([proto(1, a), proto(2, Buffer.alloc(32, 9)), proto(1, b), proto(9, Buffer.from('/w/p'))]));
    expect(r).toEqual({ messageIds: [a.toString('hex'), b.toString('hex')], workspace: '/w/p' });
  });

  it('never throws on any bytes, and gives undefined for what is not a message of 32-byte ids', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const b = Buffer.from(bytes);
        expect(() => protoFields(b)).not.toThrow();
        const r = readRootBlob(b);
        if (r) expect(r.messageIds.every((id) => id.length === 64)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(readRootBlob(Buffer.from('{"role":"user"}'))).toBeUndefined();
  });

  it('meta: hex-encoded JSON as 2025.10.21 writes it, or JSON as it is', () => {
    expect(decodeMeta(Buffer.from('{"agentId":"x"}').toString('hex'))).toEqual({ agentId: 'x' });
    expect(decodeMeta('{"agentId":"y"}')).toEqual({ agentId: 'y' });
    expect(decodeMeta('zz')).toBeUndefined();
  });
});

describe('cursor-agent store rows', () => {
  it('the session, the messages in root order with the session time, the root workspace path verified by the folder hash', async () => {
    const s = store({
      cwd: '/w/p',
      workspaceField: '/w/p',
      messages: [
        { role: 'system', content: 'You are Cursor.' },
        query('first'),
        { role: 'assistant', content: [{ type: 'reasoning', text: 'hm' }, { type: 'text', text: 'ok' }, { type: 'tool-call', toolCallId: 't1', toolName: 'Shell', input: { command: 'ls -la' } }, { type: 'tool-call', toolCallId: 't2', toolName: 'read_file', args: { path: '/w/p/a' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'Shell', output: { output: 'a b' } }, { type: 'tool-result', toolCallId: 't2', toolName: 'read_file', result: { contents: 'A' } }] },
        { role: 'assistant', content: 'plain string reply', providerOptions: { cursor: { modelName: 'claude-4.5-sonnet' } } },
      ],
    });
    const { rows, ctx } = await parseFile(s.home, s.rel);
    expect(rows.map((r) => [r.turn_type, r.text, r.tool_name, r.tool_use_id, r.model, r.tag ?? '', r.project_path])).toEqual([
      ['system', 'session start: cursor-agent mode=default', '', '', 'gpt-5', 'session_start', '/w/p'],
      ['system', 'session name: Chat', '', '', 'gpt-5', 'session_name', '/w/p'],
      ['system', 'model: gpt-5', '', '', 'gpt-5', 'model', '/w/p'],
      ['system', 'system prompt: You are Cursor.', '', '', 'gpt-5', 'system_prompt', '/w/p'],
      ['user', 'first', '', '', 'gpt-5', 'time_session', '/w/p'],
      ['thinking', 'hm', '', '', 'gpt-5', 'time_session', '/w/p'],
      ['assistant', 'ok', '', '', 'gpt-5', 'time_session', '/w/p'],
      ['tool_use', 'ls -la', 'Shell', 't1', 'gpt-5', 'time_session', '/w/p'],
      ['tool_use', '{"path":"/w/p/a"}', 'read_file', 't2', 'gpt-5', 'time_session', '/w/p'],
      ['tool_result', 'a b', 'Shell', 't1', 'gpt-5', 'time_session', '/w/p'],
      ['tool_result', '{"contents":"A"}', 'read_file', 't2', 'gpt-5', 'time_session', '/w/p'],
      ['assistant', 'plain string reply', '', '', 'claude-4.5-sonnet', 'time_session', '/w/p'],
    ]);
    expect(rows.slice(4).every((r) => r.timestamp_utc === '2026-10-01T09:00:00.000Z')).toBe(true);
    expect(ctx.facts).toEqual([
      { session_id: 'a1', key: 'cwd', value: '/w/p', priority: 1 },
      { session_id: 'a1', key: 'client', value: 'cursor-agent', priority: 1 },
    ]);
  });

  it('a workspace that does not hash to the folder is kept at a lower priority', async () => {
    const s = store({ hashOf: '/elsewhere', messages: [{ role: 'user', content: "<user_info>The absolute path of the user's workspace is /w/q. The user's shell is zsh.</user_info>" }, query('go')] });
    const { rows, ctx } = await parseFile(s.home, s.rel);
    expect(ctx.facts.filter((f) => f.key === 'cwd')).toEqual([{ session_id: `a${n}`, key: 'cwd', value: '/w/q', priority: 2 }]);
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['go']);
    expect(rows.find((r) => r.tag === 'user_context')?.text).toContain('/w/q');
  });

  it('without a readable root: every JSON message in rowid order, tagged unordered; binary blobs skipped silently', async () => {
    for (const root of ['missing', 'garbage'] as const) {
      const s = store({ root, messages: [query('one'), '\u0000\u0001binary step', { role: 'assistant', content: 'two' }] });
      const { rows, ctx } = await parseFile(s.home, s.rel);
      expect([root, rows.filter((r) => r.tag === 'unordered').map((r) => r.text)]).toEqual([root, ['one', 'two']]);
      expect(ctx.unknowns).toEqual([]);
    }
  });

  it('a root naming a message the store lacks says how many are missing', async () => {
    const s = store({ messages: [query('kept')] });
    const db = new Database(join(s.home, s.rel));
    const gone = db.prepare("DELETE FROM blobs WHERE instr(CAST(data AS TEXT), 'kept') > 0").run();
    expect(gone.changes).toBe(1);
    db.close();
    const { rows } = await parseFile(s.home, s.rel);
    expect(rows.filter((r) => r.tag === 'messages_missing').map((r) => r.text)).toEqual(['messages missing: the root blob lists 1 message(s) the store does not hold as JSON']);
  });

  it('unknown roles and parts are counted; a meta row that is not JSON is said, the messages still read', async () => {
    const s = store({ meta: 'not hex json', root: 'missing', messages: [{ role: 'critic', content: 'x' }, { role: 'assistant', content: [{ type: 'source', url: 'u' }, { type: 'text', text: 'y' }] }] });
    const { rows, ctx } = await parseFile(s.home, s.rel);
    expect(rows.map((r) => [r.turn_type, r.text, r.session_id])).toEqual([
      ['system', 'parser: the meta row is missing or not hex-encoded JSON; messages are read without the session record', `a${n}`],
      ['assistant', 'y', `a${n}`],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['cli message role critic', 'cli message part source']);
  });

  it('a store in an agent worktree is a scratch directory', async () => {
    const wt = '/home/u/.cursor/worktrees/r/1';
    const s = store({ cwd: wt, workspaceField: wt, messages: [query('x')] });
    const { rows } = await parseFile(s.home, s.rel);
    expect(rows.filter((r) => r.tag === 'scratch_directory').map((r) => r.text)).toEqual([`scratch directory: ${wt} (agent worktree)`]);
  });

  it('a database without the store tables is one unreadable row', async () => {
    const home = join(dir, 'notables');
    const rel = `.cursor/chats/${md5('/x')}/z/store.db`;
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    new Database(join(home, rel)).exec('CREATE TABLE other (x)');
    const { rows } = await parseFile(home, rel);
    expect(rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', `parser: unreadable file (expected cursor-agent's meta and blobs tables in ${rel}, found other)`]]);
  });
});
