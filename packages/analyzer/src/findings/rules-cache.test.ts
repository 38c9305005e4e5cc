import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_RULES, compileRules } from './load.js';
import { cachedRuleDocs, rulesCacheText } from './rules-cache.js';
import { parseRuleFile } from './yaml-tree.js';

const work = mkdtempSync(join(tmpdir(), 'aitrail-rules-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const builtIn = readdirSync(BUILT_IN_RULES, { recursive: true })
  .map(String)
  .filter((f) => /\.ya?ml$/i.test(f))
  .sort()
  .map((f) => ({ name: `rules/${f}`, text: readFileSync(join(BUILT_IN_RULES, f), 'utf8') }));

describe('the built-in rules cache', () => {
  const file = join(work, 'builtin-rules.json');
  writeFileSync(file, rulesCacheText(builtIn.map((r) => ({ text: r.text, docs: parseRuleFile(r.name, r.text) }))));

  it('gives back, for every built-in rule file, the documents the YAML parse gives, and the same compiled rules', () => {
    expect(builtIn.length).toBeGreaterThan(10);
    for (const r of builtIn) {
      const cached = cachedRuleDocs(r.text, file);
      expect(cached, r.name).toEqual(parseRuleFile(r.name, r.text));
      expect(JSON.stringify(compileRules(r.name, cached!)), r.name).toBe(JSON.stringify(compileRules(r.name, parseRuleFile(r.name, r.text))));
    }
  });

  it('holds nothing for a text it was not made from (a rule edited after the build is parsed again)', () => {
    expect(cachedRuleDocs(`${builtIn[0].text}\n# edited\n`, file)).toBeUndefined();
  });

  it('is simply absent when the file is missing or is not JSON', () => {
    expect(cachedRuleDocs(builtIn[0].text, join(work, 'none.json'))).toBeUndefined();
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{"cut');
    expect(cachedRuleDocs(builtIn[0].text, bad)).toBeUndefined();
  });
});
