// Run by `build` after tsc: parses the built-in rules (rules/**/*.yml) with the built parser and
// writes dist/findings/builtin-rules.json, so a run loads their trees without the YAML library
// (src/findings/rules-cache.ts says why).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = (f) => pathToFileURL(join(pkg, 'dist', 'findings', f)).href;
const { parseRuleFile } = await import(dist('yaml-tree.js'));
const { RULES_CACHE_FILE, rulesCacheText } = await import(dist('rules-cache.js'));

const rulesDir = join(pkg, 'rules');
const files = readdirSync(rulesDir, { recursive: true })
  .map(String)
  .filter((f) => /\.ya?ml$/i.test(f))
  .sort();
const parsed = files.map((f) => {
  const text = readFileSync(join(rulesDir, f), 'utf8');
  return { text, docs: parseRuleFile(`rules/${f}`, text) };
});
writeFileSync(RULES_CACHE_FILE, rulesCacheText(parsed));
