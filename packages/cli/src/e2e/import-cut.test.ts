import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, unwrapOclif } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// An aitrail collection zip cut short (a copy stopped, a collection killed): no central
// directory, and no collection.json or manifest.jsonl, which come last. analyze and verify refuse
// it and name `aitrail import`, which recovers the whole members into a new archive; that
// archive's timeline holds the rows of the members that survived. The members are those of a
// real collect of two seed homes.

const HOMES = [join(REPO, 'fixtures/homes/seed-copilot'), join(REPO, 'fixtures/homes/seed-claude')];
type R = Record<string, unknown>;
// What a row says, without what the lost collection.json and manifest knew (host, home paths, file times).
const said = (rows: R[]) => rows.map((r) => JSON.stringify([r.agent, r.session_id, r.turn_type, r.tool_name, r.tag ?? '', r.text])).sort();

let T: string;
let whole: Buffer;
let wholeZip: string;
let wholeOut: string;
let expected: string[];
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-cut-'));
  const c = await sharedCollect(HOMES);
  expect(c.run.code, c.run.stderr).toBe(0);
  const { run, out } = await sharedAnalyze(c.zip, []);
  expect(run.code, run.stderr).toBe(0);
  expected = said(readJsonl<R>(join(out, 'timeline.jsonl')));
  wholeOut = out;
  expect(expected.length).toBeGreaterThan(30);
  whole = readFileSync(c.zip);
  wholeZip = c.zip;
});
afterAll(() => rmSync(T, { recursive: true, force: true }));

/** The archive cut where manifest.jsonl's local header starts: every agent file whole, the metadata gone. */
function cutBeforeManifest(): string {
  const at = whole.indexOf(Buffer.from('manifest.jsonl')) - 30;
  expect(whole.readUInt32LE(at)).toBe(0x04034b50);
  const p = join(T, 'cut.zip');
  writeFileSync(p, whole.subarray(0, at));
  return p;
}

describe('an aitrail collection cut short', () => {
  it('analyze and verify refuse it, say it is cut short and name aitrail import, with no stack trace', async () => {
    const cut = cutBeforeManifest();
    for (const args of [['analyze', cut, '--out', join(T, 'refused')], ['verify', cut]]) {
      const r = await runCli(args);
      expect(r.code, r.stderr).not.toBe(0);
      expect(stackTraceLines(r.stderr)).toEqual([]);
      const text = unwrapOclif(r.stderr);
      expect(text).toMatch(/cut short/);
      expect(text).toContain(`aitrail import ${cut} --out <new.zip>`);
    }
  });

  it('aitrail import recovers every whole member; the new archive gives the timeline of the files that survived', async () => {
    const cut = cutBeforeManifest();
    const out = join(T, 'salvaged.zip');
    const imp = await runCli(['import', cut, '--out', out]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/^imported: the whole members of an aitrail collection cut short/);
    expect(imp.stdout).toMatch(/collection\.json and manifest\.jsonl, written last, are lost/);
    const a = await runCli(['analyze', out, '--out', join(T, 'out')]);
    expect(a.code, a.stderr).toBe(0);
    expect(stackTraceLines(a.stderr)).toEqual([]);
    expect(said(readJsonl<R>(join(T, 'out', 'timeline.jsonl')))).toEqual(expected);
    const inv = JSON.parse(readFileSync(join(T, 'out', 'inventory.json'), 'utf8'));
    const from = inv.collections[0].imported_from;
    expect(from.collector).toBe('aitrail');
    expect(from.cut_at_byte).toBe(whole.indexOf(Buffer.from('manifest.jsonl')) - 30);
    expect(inv.collections[0].host).toBe('unknown');
    expect(inv.homes.map((h: R) => h.home).sort()).toEqual(['/home/seed-claude', '/home/seed-copilot']);
    // Each file's mtime survives in its member's local header, in whole seconds; the other times are lost.
    expect(imp.stdout).toMatch(/modification times are the members' own, in whole seconds/);
    const before = new Map((await manifestOf(wholeZip)).rows.map((r) => [r.archive_path, r]));
    const after = (await manifestOf(out)).rows.filter((r) => r.status === 'collected' && r.kind === 'file');
    expect(after.length).toBeGreaterThan(10);
    for (const r of after) {
      const was = before.get(r.archive_path);
      expect(was, r.archive_path).toBeDefined();
      expect(r.mtime, r.archive_path).toBe(new Date(Math.floor(Date.parse(was!.mtime!) / 1000) * 1000).toISOString());
      expect(r.atime, r.archive_path).toBe('');
    }
  });

  it("cut inside a session log: its first lines are analyzed, its cut line is a row that says so, its manifest row says it is partial", async () => {
    const member = 'homes/seed-copilot/.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl';
    const at = whole.indexOf(Buffer.from(member)) - 30;
    expect(whole.readUInt32LE(at)).toBe(0x04034b50);
    const dataStart = at + 30 + whole.readUInt16LE(at + 26) + whole.readUInt16LE(at + 28);
    const p = join(T, 'cut-log.zip');
    writeFileSync(p, whole.subarray(0, dataStart + Math.floor(whole.readUInt32LE(at + 18) / 2)));
    const imp = await runCli(['import', p, '--out', join(T, 'cut-log-new.zip'), '--json']);
    expect(imp.code, imp.stderr).toBe(0);
    expect(JSON.parse(imp.stdout).partial).toBe(1);
    const notes = (JSON.parse(imp.stdout).source_notes as string[]).join('\n');
    expect(notes).toMatch(new RegExp(`member ${member} is cut short: .*its first \\d+ bytes are recovered`));
    const row = (await manifestOf(join(T, 'cut-log-new.zip'))).rows.find((r) => r.archive_path === member);
    expect(row?.status).toBe('collected');
    expect(row?.reason).toMatch(/cut short: .*its end and its CRC-32 are lost/);
    const a = await runCli(['analyze', join(T, 'cut-log-new.zip'), '--out', join(T, 'cut-log')]);
    expect(a.code, a.stderr).toBe(0);
    const from = (rows: R[]) => rows.filter((r) => r.source_file === member);
    const got = from(readJsonl<R>(join(T, 'cut-log', 'timeline.jsonl')));
    const all = from(readJsonl<R>(join(wholeOut, 'timeline.jsonl')));
    const bad = got.filter((r) => r.tag === 'bad_line');
    expect(bad).toHaveLength(1);
    expect(String(bad[0].text)).toMatch(/cut line/);
    // The lines before the cut give the rows they gave in the whole archive.
    const lines = (rows: R[]) => rows.map((r) => JSON.stringify([r.source_line, r.turn_type, r.tag ?? '', r.text]));
    const before = got.filter((r) => r.tag !== 'bad_line');
    expect(before.length).toBeGreaterThan(0);
    for (const l of lines(before)) expect(lines(all)).toContain(l);
    expect(before.length).toBeLessThan(all.length);
  });

  it('cut inside its central directory: the import is the collection its surviving manifest recorded, its timeline the same bytes', async () => {
    const cd = whole.readUInt32LE(whole.length - 22 + 16);
    const p = join(T, 'cut-directory.zip');
    writeFileSync(p, whole.subarray(0, cd + 50));
    const r = await runCli(['analyze', p, '--out', join(T, 'refused-cd')]);
    expect(unwrapOclif(r.stderr)).toMatch(/cut short or damaged/);
    const imp = await runCli(['import', p, '--out', join(T, 'cut-directory-new.zip')]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/^imported: an aitrail collection damaged after its manifest, as that manifest recorded it/);
    const a = await runCli(['analyze', join(T, 'cut-directory-new.zip'), '--out', join(T, 'cut-directory')]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/made by aitrail import from an aitrail collection damaged after its manifest/);
    expect(readFileSync(join(T, 'cut-directory', 'timeline.jsonl'))).toEqual(readFileSync(join(wholeOut, 'timeline.jsonl')));
    expect(readFileSync(join(T, 'cut-directory', 'sessions.jsonl'))).toEqual(readFileSync(join(wholeOut, 'sessions.jsonl')));
  });

  it("its end record's directory offset damaged: analyze names aitrail import, which gives the same timeline", async () => {
    // One less than it is: the directory lists (its start found by its size) but no member reads where it says.
    const b = Buffer.from(whole);
    b.writeUInt32LE(b.readUInt32LE(b.length - 22 + 16) - 1, b.length - 22 + 16);
    const p = join(T, 'offset.zip');
    writeFileSync(p, b);
    const r = await runCli(['analyze', p, '--out', join(T, 'refused-offset')]);
    expect(r.code).not.toBe(0);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    expect(unwrapOclif(r.stderr)).toContain(`central directory is damaged: \`aitrail import ${p} --out <new.zip>\``);
    const imp = await runCli(['import', p, '--out', join(T, 'offset-new.zip')]);
    expect(imp.code, imp.stderr).toBe(0);
    const a = await runCli(['analyze', join(T, 'offset-new.zip'), '--out', join(T, 'offset')]);
    expect(a.code, a.stderr).toBe(0);
    expect(readFileSync(join(T, 'offset', 'timeline.jsonl'))).toEqual(readFileSync(join(wholeOut, 'timeline.jsonl')));
  });

  it("the collector's own .partial of a killed run: analyze names aitrail import, which takes it and the host its name gives", async () => {
    const p = join(T, 'aitrail-vm8-20261201T043000Z.zip.partial');
    writeFileSync(p, whole.subarray(0, Math.floor(whole.indexOf(Buffer.from('manifest.jsonl')) * 0.7)));
    const r = await runCli(['analyze', p, '--out', join(T, 'refused-partial')]);
    expect(unwrapOclif(r.stderr)).toContain(`aitrail import ${p} --out <new.zip>`);
    const imp = await runCli(['import', p, '--out', join(T, 'partial-new.zip')]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(stackTraceLines(imp.stderr)).toEqual([]);
    const a = await runCli(['analyze', join(T, 'partial-new.zip'), '--out', join(T, 'partial')]);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(T, 'partial', 'inventory.json'), 'utf8')).collections[0].host).toBe('vm8');
  });

  it('cut inside a member: the members before it are recovered, the rest are said to be lost', async () => {
    // Halfway through the archive's data: the cut falls inside some member.
    const p = join(T, 'aitrail-vm7-20261201T043000Z.zip');
    const at = Math.floor(whole.indexOf(Buffer.from('manifest.jsonl')) / 2);
    writeFileSync(p, whole.subarray(0, at));
    const imp = await runCli(['import', p, '--out', join(T, 'half.zip'), '--json']);
    expect(imp.code, imp.stderr).toBe(0);
    const summary = JSON.parse(imp.stdout);
    const notes = (summary.source_notes as string[]).join('\n');
    expect(notes).toMatch(/cut short/);
    // The default file name gives the host and the time the collection started.
    const a = await runCli(['analyze', join(T, 'half.zip'), '--out', join(T, 'half')]);
    expect(a.code, a.stderr).toBe(0);
    const inv = JSON.parse(readFileSync(join(T, 'half', 'inventory.json'), 'utf8'));
    expect(inv.collections[0].host).toBe('vm7');
    expect(inv.collections[0].imported_from.started_utc).toBe('2026-12-01T04:30:00.000Z');
    expect(a.stderr).toMatch(/made by aitrail import from an aitrail collection cut short/);
    // A row's session can come from a file that was lost: rows are compared by what they say.
    const what = (rows: R[]) => rows.map((r) => JSON.stringify([r.agent, r.turn_type, r.text]));
    const rows = what(readJsonl<R>(join(T, 'half', 'timeline.jsonl')));
    const all = new Set(what(readJsonl<R>(join(T, 'out', 'timeline.jsonl'))));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(expected.length);
    for (const r of rows) expect(all).toContain(r);
  });
});
