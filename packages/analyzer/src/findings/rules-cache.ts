import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Located } from './located.js';

/**
 * The built-in rules' YAML parsed at build time (`scripts/rules-cache.mjs` writes it beside the
 * built code): loading the YAML library and parsing took 80-90 ms of each thread that runs the
 * rules. From src there is no such file and the YAML is parsed.
 */
export const RULES_CACHE_FILE = fileURLToPath(new URL('./builtin-rules.json', import.meta.url));

/** The cache's key for a rule file: its text's SHA-256, so an edited rule is parsed again, never read stale. */
export function ruleTextKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The cache file's text: each rule file's key and its parsed documents. */
export function rulesCacheText(parsed: readonly { text: string; docs: Located[] }[]): string {
  return `${JSON.stringify(Object.fromEntries(parsed.map((p) => [ruleTextKey(p.text), p.docs])))}\n`;
}

const caches = new Map<string, Map<string, Located[]>>();

/** The documents the cache `file` holds for a rule file's `text`, or undefined (no cache, unreadable, or made from other texts). */
export function cachedRuleDocs(text: string, file: string = RULES_CACHE_FILE): Located[] | undefined {
  let cache = caches.get(file);
  if (!cache) {
    try {
      cache = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Located[]>));
    } catch {
      cache = new Map();
    }
    caches.set(file, cache);
  }
  return cache.get(ruleTextKey(text));
}
