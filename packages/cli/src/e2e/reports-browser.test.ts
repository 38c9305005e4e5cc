// biome-ignore-all lint/performance/useDomNodeTextContent: the tests read what the browser renders (innerText), which is the point
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, runCli, tempDir } from './test-helpers/hostile-harness.js';

// report.html and `aitrail serve` in a real headless browser (Debian's chromium, driven by
// playwright-core: no browser download), over the hostile-html home plus a 10 MB prompt line:
// the hostile text shows as text, nothing runs, no request leaves the machine, search works.
// One browser for the whole file. AITRAIL_SCREENSHOTS=<dir> also saves the docs' screenshots.

const CHROMIUM = process.env.AITRAIL_CHROMIUM ?? '/usr/bin/chromium';
const SID = '0bad0bad-0000-4000-8000-00000000f00d';
const BIG = 10 * 1024 * 1024;
const SHOTS = process.env.AITRAIL_SCREENSHOTS;

let T: string;
let out: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`expected a chromium at ${CHROMIUM}, found none: apt-get install -y chromium (or set AITRAIL_CHROMIUM)`);
  T = tempDir('aitrail-e2e-reports-browser-');
  const home = join(T, 'hostile-html');
  cpSync(join(REPO, 'fixtures/homes/hostile-html'), home, { recursive: true });
  const transcript = join(home, `.claude/projects/-srv-hostile/${SID}.jsonl`);
  const big = { parentUuid: 'e1000000-0000-4000-8000-000000000004', isSidechain: false, type: 'user', promptId: 'f1000000-0000-4000-8000-000000000002', message: { role: 'user', content: `bigline <script>window.__pwned='big'</script>${'A'.repeat(BIG)}<img src=x onerror="window.__pwned='bigend'">` }, uuid: 'e1000000-0000-4000-8000-000000000005', timestamp: '2026-11-02T10:05:00.000Z', userType: 'external', entrypoint: 'cli', cwd: '/srv/hostile', sessionId: SID, version: '2.1.143', gitBranch: 'main' };
  writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}${JSON.stringify(big)}\n`);
  const c = await runCli(['collect', '--home', home, '--out', join(T, 'c.zip')], { timeoutMs: 300_000 });
  expect(c.code, c.stderr).toBe(0);
  out = join(T, 'out');
  const a = await runCli(['analyze', join(T, 'c.zip'), '--out', out], { timeoutMs: 300_000, maxOldSpaceMb: 0 });
  expect(a.code, a.stderr).toBe(0);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (T) rmSync(T, { recursive: true, force: true });
});

/** A page that records console errors, page errors and every request, letting only `allowed` ones through. */
async function watchedPage(allowed: (url: string) => boolean): Promise<{ ctx: BrowserContext; page: Page; errors: string[]; blocked: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const blocked: string[] = [];
  await ctx.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const page = await ctx.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { ctx, page, errors, blocked };
}

/** What the hostile text could have done: set window.__pwned, add event-handler attributes, javascript: links, frames, images. */
function damage(page: Page): Promise<{ pwned: unknown; handlers: string[]; jsLinks: number; embedded: number; scripts: number }> {
  // A string, evaluated in the page (this file is compiled without the DOM's types).
  return page.evaluate(`({
    pwned: window.__pwned ?? null,
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => e.tagName + ' ' + a.name)),
    jsLinks: document.querySelectorAll('[href^="javascript:" i], [src^="javascript:" i]').length,
    embedded: document.querySelectorAll('iframe, img, link, meta[http-equiv="refresh" i], object, embed, body style').length,
    scripts: document.scripts.length,
  })`);
}

describe('the example queries of docs/formats.md', () => {
  it('run on this output: the Bash call made under bypassPermissions is found', () => {
    const md = readFileSync(join(REPO, 'docs/formats.md'), 'utf8');
    const sql = md.split('```sql')[1].split('```')[0].replace(/--.*$/gm, '');
    const db = new Database(join(out, 'timeline.sqlite'), { readonly: true });
    try {
      const results = sql.split(';').map((q) => q.trim()).filter(Boolean).map((q) => db.prepare(q).all() as Record<string, unknown>[]);
      expect(results.length).toBe(4);
      expect(results[1]).toEqual([expect.objectContaining({ tool_name: 'Bash', text: `echo '<svg onload="window.__pwned=1">' > /tmp/x.html`, permission_mode: 'permission mode: bypassPermissions' })]);
      expect(results[2]).toEqual([expect.objectContaining({ agent: 'claude-code', project_path: '/srv/hostile', sessions: 1 })]);
    } finally {
      db.close();
    }
  });
});

describe('--no-reports', () => {
  it('writes no report output and removes those an earlier run left', async () => {
    const again = join(T, 'again');
    cpSync(out, again, { recursive: true });
    const r = await runCli(['analyze', join(T, 'c.zip'), '--out', again, '--no-reports'], { timeoutMs: 300_000, maxOldSpaceMb: 0 });
    expect(r.code, r.stderr).toBe(0);
    // findings.jsonl is not a report output (--no-findings skips it).
    expect(readdirSync(again).sort()).toEqual(['duplicates.jsonl', 'findings.jsonl', 'inventory.json', 'sessions.jsonl', 'timeline.csv', 'timeline.jsonl']);
    expect(r.stdout).not.toContain('report.html');
  });
});

describe('report.html from disk', () => {
  let w: Awaited<ReturnType<typeof watchedPage>>;
  const file = () => join(out, 'report.html');
  beforeAll(async () => {
    w = await watchedPage((url) => url.startsWith('file://'));
    await w.page.goto(`file://${file()}`);
    if (SHOTS) {
      await w.page.screenshot({ path: join(SHOTS, 'report-html.png') });
      await w.page.locator('.conv').first().screenshot({ path: join(SHOTS, 'report-conversation.png') });
    }
    return () => w.ctx.close();
  });

  it('opens with no console error and no request beyond the file itself', () => {
    expect(w.errors).toEqual([]);
    expect(w.blocked).toEqual([]);
  });

  it('runs nothing from the evidence: no handler, javascript: link, frame, image or extra script', async () => {
    expect(await damage(w.page)).toEqual({ pwned: null, handlers: [], jsLinks: 0, embedded: 0, scripts: 1 });
  });

  it('shows the hostile text as text', async () => {
    const text = await w.page.locator('#conversations').innerText();
    for (const s of [`<script>window.__pwned='prompt'</script>`, `<img src=x onerror="window.__pwned='img'">`, `<a href="javascript:window.__pwned='link'">click</a>`, `</pre></div></section><script>window.__pwned='reply'</script>`, `<iframe src="https://example.invalid/"></iframe>`, `echo '<svg onload="window.__pwned=1">'`]) {
      expect(text).toContain(s);
    }
    expect(await w.page.locator('#sessions').innerText()).toContain(`<img src=x onerror="window.__pwned='title'">`);
  });

  it('cuts the 10 MB prompt and says how much is left out; the file stays small', async () => {
    const big = w.page.locator('.turn', { hasText: 'bigline' });
    const shown = await big.locator('pre').innerText();
    expect(shown.startsWith(`bigline <script>window.__pwned='big'</script>AAAA`)).toBe(true);
    expect(shown.length).toBeLessThan(2000);
    expect(await big.locator('.note').innerText()).toMatch(/… \d+ more characters in timeline\.jsonl/);
    expect(statSync(file()).size).toBeLessThan(200_000);
  });

  it('lists the bypassPermissions session as an unattended period', async () => {
    const rows = await w.page.locator('#permissions table').first().locator('tbody tr').allInnerTexts();
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain('permission mode: bypassPermissions');
    expect(rows[0]).toContain(SID);
  });

  it('filters the conversations by a word of a prompt', async () => {
    await w.page.fill('#filter', 'zebraquokka');
    expect(await w.page.locator('#filter-count').innerText()).toBe('1 matching entries');
    const visible = await w.page.locator('.turn:not(.hidden)').allInnerTexts();
    expect(visible.length).toBe(1);
    expect(visible[0]).toContain('zebraquokka check <script>');
    await w.page.fill('#filter', '');
    expect(await damage(w.page)).toMatchObject({ pwned: null, handlers: [] });
  });
});

describe('aitrail serve', () => {
  let child: ChildProcess;
  let url: string;
  let w: Awaited<ReturnType<typeof watchedPage>>;
  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'serve', out], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    url = await new Promise<string>((res, rej) => {
      let text = '';
      child.stdout!.on('data', (d: Buffer) => {
        text += d.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(text);
        if (m) res(m[0]);
      });
      child.on('exit', (code) => rej(new Error(`aitrail serve exited (${code}) before printing its URL: ${text}`)));
    });
    w = await watchedPage((u) => u.startsWith(url));
    await w.page.goto(url);
    await w.page.locator('#status', { hasText: 'of' }).waitFor();
    return async () => {
      await w.ctx.close();
      if (child.pid && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
    };
  });

  it('listens on 127.0.0.1 and shows every row with no console error and no request elsewhere', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await w.page.locator('#status').innerText()).toBe('rows 1–7 of 7');
    expect(w.errors).toEqual([]);
    expect(w.blocked).toEqual([]);
    expect(await damage(w.page)).toEqual({ pwned: null, handlers: [], jsLinks: 0, embedded: 0, scripts: 1 });
  });

  it('finds the prompt by full-text search and shows its hostile text as text', async () => {
    await w.page.fill('#q', 'zebraquokka');
    await w.page.click('#go');
    await w.page.locator('#status', { hasText: 'of 1' }).waitFor();
    const rows = await w.page.locator('#rows tr').allInnerTexts();
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain(`zebraquokka check <script>window.__pwned='prompt'</script> and <img src=x onerror="window.__pwned='img'">`);
    if (SHOTS) await w.page.screenshot({ path: join(SHOTS, 'serve.png') });
    expect(await damage(w.page)).toEqual({ pwned: null, handlers: [], jsLinks: 0, embedded: 0, scripts: 1 });
  });

  it('filters by turn type and time, and pages', async () => {
    await w.page.fill('#q', '');
    await w.page.selectOption('#turn_type', 'user');
    await w.page.fill('#from', '2026-11-02T10:01');
    await w.page.click('#go');
    await w.page.locator('#status', { hasText: 'of 1' }).waitFor();
    const big = await w.page.locator('#rows tr').innerText();
    expect(big).toContain('bigline <script>');
    expect(big).toMatch(/… \d+ more characters \(row \d+ in timeline\.sqlite\)/);
    const page = (await (await fetch(`${url}api/rows?limit=2&offset=2`)).json()) as { total: number; offset: number; rows: unknown[] };
    expect([page.total, page.offset, page.rows.length]).toEqual([7, 2, 2]);
    expect(w.errors).toEqual([]);
  });

  it('is read-only and answers only to its own address', async () => {
    expect((await fetch(`${url}api/rows`, { method: 'POST' })).status).toBe(405);
    // What a page on a DNS-rebound name would send (fetch() cannot set Host; node:http can).
    const rebound = await new Promise<{ status: number; body: string }>((res, rej) => {
      get(`${url}api/facets`, { headers: { host: 'attacker.example:80' } }, (r) => {
        let body = '';
        r.on('data', (d: Buffer) => (body += d.toString()));
        r.on('end', () => res({ status: r.statusCode ?? 0, body }));
      }).on('error', rej);
    });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).error).toMatch(/expected Host 127\.0\.0\.1:\d+, found attacker\.example:80/);
  });
});
