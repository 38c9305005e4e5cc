import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { windsurfPlugin } from './index.js';

// fixtures/homes/windsurf-spec: Cascade's encrypted stores (random bytes standing in for
// ciphertext) give one inventory row each, never their bytes; the plan, rules and workflow in the
// clear give their text. shared/agents/windsurf.md, Parser plan.

const [stores, plans, rules] = windsurfPlugin.parsers;
const homes = tempHomes('windsurf');
const W = '.codeium/windsurf';
const C1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const MTIME = new Date('2026-10-02T09:30:00Z');
const T = MTIME.toISOString();

function home(): string {
  const h = copyHome('windsurf-spec', homes.make());
  for (const rel of [`${W}/cascade/${C1}.pb`, `${W}/implicit/${C1}.pb`, `${W}/memories/5e5e5e5e-0000-4000-8000-000000000001.pb`, `${W}/brain/${C1}/plan.md`, `${W}/memories/global_rules.md`, `${W}/global_workflows/release.md`]) utimesSync(join(h, rel), MTIME, MTIME);
  return h;
}

describe('windsurf (the fixture home)', () => {
  it('an encrypted store: one row with its name, size and time, in its conversation when it is one', async () => {
    const h = home();
    // Never read: a stream that throws proves the row comes from the path, size and time alone.
    const unread = { fields: { stream: () => { throw new Error('an encrypted store was read'); } } };
    const rows = [...(await run(stores, h, `${W}/cascade/${C1}.pb`, unread)).rows, ...(await run(stores, h, `${W}/implicit/${C1}.pb`)).rows, ...(await run(stores, h, `${W}/memories/5e5e5e5e-0000-4000-8000-000000000001.pb`)).rows];
    expect(rows.map((r) => [r.session_id, r.timestamp_utc, r.turn_type, r.text.replace(/\d+ bytes/, 'N bytes'), r.tag])).toEqual([
      [C1, T, 'system', `cascade conversation ${C1}: encrypted, N bytes (its content cannot be read)`, 'time_file'],
      ['', T, 'system', `windsurf implicit ${C1}: encrypted, N bytes (its content cannot be read)`, 'time_file'],
      ['', T, 'system', 'windsurf memories 5e5e5e5e-0000-4000-8000-000000000001: encrypted, N bytes (its content cannot be read)', 'time_file'],
    ]);
    // The size is the file's as collected, never a byte of it.
    expect(rows[0].text).toContain(`encrypted, ${statSync(join(h, `${W}/cascade/${C1}.pb`)).size} bytes`);
  });

  it('the plan in its conversation; the global rules and a workflow as rules rows', async () => {
    const h = home();
    expect((await run(plans, h, `${W}/brain/${C1}/plan.md`)).rows.map((r) => [r.session_id, r.turn_type, r.text, r.timestamp_utc])).toEqual([[C1, 'assistant', 'plan:\n# Plan\n\n1. Reproduce the flaky test\n2. Fix the temp folder race\n', T]]);
    const r1 = (await run(rules, h, `${W}/memories/global_rules.md`)).rows;
    const r2 = (await run(rules, h, `${W}/global_workflows/release.md`)).rows;
    expect([...r1, ...r2].map((r) => [r.turn_type, r.text.split('\n')[0], r.tag])).toEqual([
      ['system', 'global rules (global_rules.md):', 'rules'],
      ['system', 'workflow (release.md):', 'rules'],
    ]);
    expect(r1[0].text).toContain('Always run the tests before committing.');
  });

  it('wants its stores, plans and rules in both homes, nothing else', () => {
    for (const rel of [`${W}/cascade/x.pb`, '.codeium/windsurf-next/chat_state/y.pb', `${W}/brain/x/plan.md`, `${W}/memories/global_rules.md`, `${W}/global_workflows/a.md`]) expect(stores.wants(rel) || plans.wants(rel) || rules.wants(rel), rel).toBe(true);
    for (const rel of [`${W}/user_settings.pb`, `${W}/mcp_config.json`, `${W}/database/idx/embeddings.bin`, `${W}/brain/x/notes.md`]) expect(stores.wants(rel) || plans.wants(rel) || rules.wants(rel), rel).toBe(false);
  });
});
