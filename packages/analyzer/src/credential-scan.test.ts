import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CredentialFinding, credentialScanEligible, findCredentials, scanCredentialStream, scanCredentials } from './credential-scan.js';

// Fake tokens are assembled at run time so no credential-shaped literal sits in the repository.
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const T = {
  ghp: `ghp_${rep('aB3dE5', 36)}`,
  gho: `gho_${rep('Zy9Xw8', 36)}`,
  ghu: `ghu_${rep('Qq1', 36)}`,
  ghs: `ghs_${rep('Ss2', 36)}`,
  ghr: `ghr_${rep('Rr7', 36)}`,
  pat: `github_pat_${rep('11ABCDEFG0_', 82)}`,
  ant: `sk-ant-api03-${rep('Xk_9-', 80)}`,
  proj: `sk-proj-${rep('Pq8_', 60)}`,
  oai: `sk-${rep('T3BlbkFJ', 48)}`,
  aws: `AKIA${rep('Q7W3ER5T', 16)}`,
  slack: `xoxb-${rep('1234567890-', 40)}`,
  google: `AIza${rep('SyD-_x9', 35)}`,
  bearer: rep('eyJhbGciOi.JIUzI1NiJ9-_', 64),
};

async function* lines(...texts: string[]): AsyncGenerator<{ line: number; text: string }> {
  for (let i = 0; i < texts.length; i++) yield { line: i + 1, text: texts[i] };
}

async function* bytes(buf: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (c <= at || c >= buf.length) continue;
    yield buf.subarray(at, c);
    at = c;
  }
  if (at < buf.length) yield buf.subarray(at);
}

async function collect(it: AsyncIterable<CredentialFinding>): Promise<CredentialFinding[]> {
  const out: CredentialFinding[] = [];
  for await (const f of it) out.push(f);
  return out;
}

describe('findCredentials', () => {
  it.each([
    ['github_token', T.ghp, 'ghp_…'],
    ['github_oauth_token', T.gho, 'gho_…'],
    ['github_user_token', T.ghu, 'ghu_…'],
    ['github_server_token', T.ghs, 'ghs_…'],
    ['github_refresh_token', T.ghr, 'ghr_…'],
    ['github_fine_grained_pat', T.pat, 'gith…'],
    ['anthropic_api_key', T.ant, 'sk-a…'],
    ['openai_api_key', T.proj, 'sk-p…'],
    ['openai_api_key', T.oai, 'sk-T…'],
    ['aws_access_key_id', T.aws, 'AKIA…'],
    ['slack_token', T.slack, 'xoxb…'],
    ['google_api_key', T.google, 'AIza…'],
  ])('finds a %s and shows only its first 4 characters', (kind, token, preview) => {
    const found = findCredentials(`export KEY=${token} # pasted`, 7);
    expect(found).toEqual([{ line: 7, kind, preview }]);
    expect(JSON.stringify(found)).not.toContain(token.slice(0, 8));
  });

  it('finds a private key block by its BEGIN line, whatever the key type', () => {
    for (const t of ['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', '']) {
      const found = findCredentials(`"content":"-----BEGIN ${t}PRIVATE KEY-----\\nMIIEvQIBADANBgkq\\n-----END ${t}PRIVATE KEY-----"`, 1);
      expect(found).toEqual([{ line: 1, kind: 'private_key', preview: '----…' }]);
    }
    expect(findCredentials('-----BEGIN PUBLIC KEY-----', 1)).toEqual([]);
  });

  it('finds a Bearer token and previews the token, not the word', () => {
    expect(findCredentials(`curl -H "Authorization: Bearer ${T.bearer}" https://api.example.org`, 3)).toEqual([{ line: 3, kind: 'bearer_token', preview: 'eyJh…' }]);
    expect(findCredentials('Bearer short', 1)).toEqual([]);
  });

  it('reports a GitHub token inside a Bearer header once, as the specific kind', () => {
    expect(findCredentials(`Authorization: Bearer ${T.ghp}`, 2)).toEqual([{ line: 2, kind: 'github_token', preview: 'ghp_…' }]);
  });

  it('finds a token pasted into a prompt of events.jsonl, native and stringified, after an escaped newline', () => {
    const native = JSON.stringify({ type: 'user.message', data: { content: `use this token:\n${T.ghp}\nthanks` } });
    const stringified = JSON.stringify({ type: 'tool.execution_start', data: { arguments: JSON.stringify({ command: `echo\n${T.aws}` }) } });
    expect(findCredentials(native, 4)).toEqual([{ line: 4, kind: 'github_token', preview: 'ghp_…' }]);
    expect(findCredentials(stringified, 5)).toEqual([{ line: 5, kind: 'aws_access_key_id', preview: 'AKIA…' }]);
  });

  it('finds several credentials on one line, in order', () => {
    const found = findCredentials(`${T.slack} then ${T.google} and ${T.ant}`, 1);
    expect(found.map((f) => f.kind)).toEqual(['slack_token', 'google_api_key', 'anthropic_api_key']);
  });

  it('reports a value repeated on one line once, and two different values of one kind twice', () => {
    const prompt = JSON.stringify({ type: 'user.message', data: { content: `token ${T.ghp}`, transformedContent: `<current_datetime/>\ntoken ${T.ghp}` } });
    expect(findCredentials(prompt, 3)).toEqual([{ line: 3, kind: 'github_token', preview: 'ghp_…' }]);
    expect(findCredentials(`${T.ghp} ${T.gho} ${T.ghp.replace('a', 'z')}`, 1).map((f) => f.kind)).toEqual(['github_token', 'github_oauth_token', 'github_token']);
  });

  it('checks the left boundary as a lookbehind would, retrying one character on', () => {
    expect(findCredentials(`x${T.ghp} y${T.aws}`, 1)).toEqual([]);
    expect(findCredentials(`xghp_${T.ghp}`, 1)).toEqual([]);
    expect(findCredentials(`sk-sk-${'A'.repeat(30)}`, 1)).toEqual([{ line: 1, kind: 'openai_api_key', preview: 'sk-s…' }]);
    expect(findCredentials(`-${T.ghp}`, 1)).toEqual([]);
    expect(findCredentials(`"\\t${T.ghp}" =${T.ghp}`, 1)).toEqual([{ line: 1, kind: 'github_token', preview: 'ghp_…' }]);
    expect(findCredentials(`xBearer ${T.bearer} (Bearer ${T.bearer})`, 1)).toEqual([{ line: 1, kind: 'bearer_token', preview: 'eyJh…' }]);
  });

  it('ignores look-alikes: too short, too long, inside identifiers, hashes and UUIDs', () => {
    const negatives = [
      `ghp_${rep('a1', 35)}`, // 35 characters
      `ghp_${rep('a1', 37)}`, // 37: some other identifier
      `xghp_${rep('a1', 36)}`,
      `github_pat_${rep('a_', 81)}`,
      'task-0123456789abcdefghijklmnop', // "sk-" inside a word
      'disk-usage-report-for-the-whole-machine',
      `AKIA${rep('Q7', 15)}`,
      `XAKIA${rep('Q7', 16)}`,
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '5e55a0a1-0000-4000-8000-000000000001',
      'xoxq-1234567890-abc',
      'the bearer of bad news',
    ];
    for (const n of negatives) expect(findCredentials(`value: ${n}`, 1), n).toEqual([]);
  });

  it('returns nothing for an empty line and never throws on odd text', () => {
    expect(findCredentials('', 1)).toEqual([]);
    expect(findCredentials('\u0000\uFFFD\uD800 ghp_ sk- AKIA Bearer', 1)).toEqual([]);
  });
});

describe('scanCredentialStream', () => {
  it('takes {line, text} items as a line reader yields them', async () => {
    const found = await collect(scanCredentialStream(lines('nothing', `token ${T.gho}`, '', `key ${T.aws}`)));
    expect(found).toEqual([
      { line: 2, kind: 'github_oauth_token', preview: 'gho_…' },
      { line: 4, kind: 'aws_access_key_id', preview: 'AKIA…' },
    ]);
  });

  it('takes raw bytes, numbering lines itself, with CRLF, invalid UTF-8 and no final newline', async () => {
    const buf = Buffer.concat([Buffer.from(`héllo\r\n${T.ghs}\r\n`), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`x ${T.proj}`)]);
    const found = await collect(scanCredentialStream(bytes(buf, [])));
    expect(found).toEqual([
      { line: 2, kind: 'github_server_token', preview: 'ghs_…' },
      { line: 4, kind: 'openai_api_key', preview: 'sk-p…' },
    ]);
  });

  it('finds a token in a file saved as UTF-16 with a byte order mark, either byte order, however chunked', async () => {
    const text = `# notes\r\nexport GITHUB_TOKEN=${T.ghp}\r\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    for (const buf of [le, Buffer.from(le).swap16()]) {
      for (let cut = 1; cut < buf.length; cut += 7) {
        expect(await collect(scanCredentialStream(bytes(buf, [cut, cut + 3]))), `cut at ${cut}`).toEqual([{ line: 2, kind: 'github_token', preview: 'ghp_…' }]);
      }
    }
  });

  it('finds a token cut between two chunks at every possible offset', async () => {
    const text = `{"data":{"content":"here: ${T.ghp} ok"}}\n`;
    const buf = Buffer.from(text);
    const start = text.indexOf('ghp_');
    for (let cut = start - 2; cut <= start + 42; cut++) {
      expect(await collect(scanCredentialStream(bytes(buf, [cut]))), `cut at ${cut}`).toEqual([{ line: 1, kind: 'github_token', preview: 'ghp_…' }]);
    }
  });

  it('scans a 64 MB single line in bounded windows, finding tokens at its start, middle, window edges and end', async () => {
    const MiB = 1 << 20;
    const filler = Buffer.alloc(64 * MiB, 'a b ');
    const put = (at: number, s: string) => filler.write(s, at, 'latin1');
    // Word boundaries around each token: the filler is "a b a b ...", so spaces sit at odd offsets.
    put(1, ` ${T.ghp} `);
    put(MiB - 21, ` ${T.aws} `); // straddles the first window edge
    put(32 * MiB + 1, ` ${T.google} `);
    put(64 * MiB - 60, ` ${T.gho} `);
    const chunked = async function* () {
      for (let i = 0; i < filler.length; i += 65536) yield filler.subarray(i, i + 65536);
      yield Buffer.from('\nline two\n');
    };
    const found = await collect(scanCredentialStream(chunked()));
    expect(found).toEqual([
      { line: 1, kind: 'github_token', preview: 'ghp_…' },
      { line: 1, kind: 'aws_access_key_id', preview: 'AKIA…' },
      { line: 1, kind: 'google_api_key', preview: 'AIza…' },
      { line: 1, kind: 'github_oauth_token', preview: 'gho_…' },
    ]);
  });

  it('reports the same findings whatever the chunking (property)', async () => {
    const tokens = Object.values(T);
    const piece = fc.oneof(fc.constantFrom(...tokens), fc.constantFrom(' ', '\n', '\\n', '"', 'foo', 'Bearer ', 'ghp_', 'sk-', '\r\n'), fc.string({ maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(3000), { maxLength: 8 }), async (pieces, cuts) => {
        const text = pieces.join('');
        const expected = text.split('\n').flatMap((l, i) => findCredentials(l.replace(/\r$/, ''), i + 1));
        const got = await collect(scanCredentialStream(bytes(Buffer.from(text, 'latin1'), cuts)));
        expect(got).toEqual(expected);
        for (const f of got) expect(f.preview).toMatch(/^.{4}…$/);
        for (const t of tokens) expect(JSON.stringify(got)).not.toContain(t.slice(12, 20));
      }),
      { numRuns: 300 },
    );
  });
});

describe('scanCredentials', () => {
  it('keeps at most maxFindings, counting the rest', async () => {
    const many = Array.from({ length: 50 }, (_, i) => `${i} ${T.aws}`);
    const r = await scanCredentials(lines(...many), { maxFindings: 10 });
    expect(r.findings).toHaveLength(10);
    expect(r.total).toBe(50);
    expect(r.truncated).toBe(true);
    const all = await scanCredentials(lines(...many));
    expect(all.truncated).toBe(false);
    expect(all.findings.map((f) => f.line)).toEqual(many.map((_, i) => i + 1));
  });

  it("seed's Windows case: the token in mcp-config.json env is in a secret file, which is never scanned", async () => {
    const mcpConfig = JSON.stringify({ mcpServers: { github: { command: 'docker', env: { GITHUB_PERSONAL_ACCESS_TOKEN: T.ghp } } } }, null, 2);
    // The collector flags it (a catalog secret glob); the analyzer must not scan it into findings.
    expect(credentialScanEligible({ status: 'collected', secret: true })).toBe(false);
    expect(credentialScanEligible({ status: 'skipped_secret', secret: true })).toBe(false);
    expect(credentialScanEligible({ status: 'error', secret: false })).toBe(false);
    // A non-secret file with the same text (e.g. a prompt that pasted it) is scanned and found.
    expect(credentialScanEligible({ status: 'collected', secret: false })).toBe(true);
    const r = await scanCredentials(bytes(Buffer.from(mcpConfig), [17]));
    expect(r.findings).toEqual([{ line: 6, kind: 'github_token', preview: 'ghp_…' }]);
  });
});
