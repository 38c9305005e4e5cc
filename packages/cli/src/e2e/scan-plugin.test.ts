import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';

// `aitrail scan`: collect the named homes into OUT/collection.zip (with the plugin's catalog)
// and analyze it into OUT, in one go.

const PLUGIN = join(REPO, 'fixtures/plugins/example-agent');
type R = Record<string, unknown>;
const jsonl = (p: string): R[] => readJsonl<R>(p);

describe('aitrail scan --home ... --plugin ...', () => {
  let T: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-scan-'));
    run = await runCli(['scan', '--home', join(REPO, 'fixtures/homes/seed-copilot'), '--home', join(REPO, 'fixtures/homes/example-agent'), '--plugin', PLUGIN, '--out', join(T, 'out'), '--json'], { timeoutMs: 120_000 });
  }, 180_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('writes the archive and the five outputs, exit 0, no stack trace', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    for (const f of ['collection.zip', 'collection.zip.sha256', 'timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl']) expect(existsSync(join(T, 'out', f)), f).toBe(true);
  });

  it('collects the plugin agent through the plugin catalog and analyzes both agents', () => {
    const s = JSON.parse(run.stdout);
    expect(s.summary.map((x: R) => [x.user, x.agent, x.sessions])).toEqual([
      ['example-agent', 'example-agent', 1],
      ['seed-copilot', 'copilot-cli', 1],
    ]);
    expect(s.duplicates).toBe(7); // the seed's six and the example history's copy
    const sessions = jsonl(join(T, 'out', 'sessions.jsonl'));
    expect(sessions.map((x) => x.session_id).sort()).toEqual(['5e55a0a1-0000-4000-8000-000000000001', 'ex-0001']);
  });
});
