import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Catalog } from './catalog.js';
import { COLLECTOR_VERSION } from './version.js';

/**
 * The built-in catalogs parsed at build time (`scripts/catalog-cache.mjs` writes it beside the
 * built code): parsing and checking the YAML took ~0.4 s of every run's start-up, most of an
 * empty home's collect. From src there is no such file and the YAML is parsed.
 */
export const CATALOG_CACHE_FILE = fileURLToPath(new URL('./builtin-catalogs.json', import.meta.url));

/** A built-in catalog text: its file name under catalog/ and its YAML. */
export interface CatalogText {
  name: string;
  text: string;
}

/** One parsed built-in catalog as the cache holds it: `source` holds the file name, made a path at load. */
interface CachedCatalog {
  catalog: Catalog;
  agentLine: number;
}

interface CacheFile {
  key: string;
  catalogs: CachedCatalog[];
}

/**
 * What the parse of the built-in catalogs depends on: the collector's version, the editor table
 * and every catalog text with its name. A catalog edited after the build changes the key, so it
 * is parsed again, never read stale.
 */
export function catalogCacheKey(editors: string, texts: CatalogText[]): string {
  const h = createHash('sha256').update(`aitrail-catalog-cache 1 ${COLLECTOR_VERSION}\0`);
  h.update(`${editors.length}\0${editors}`);
  for (const t of texts) h.update(`\0${t.name}\0${t.text.length}\0${t.text}`);
  return h.digest('hex');
}

/** The cache file's text for catalogs parsed from `texts` (in the same order). */
export function catalogCacheText(key: string, texts: CatalogText[], parsed: { catalog: Catalog; agentLine: number }[]): string {
  const catalogs: CachedCatalog[] = parsed.map((p, i) => ({ catalog: { ...p.catalog, source: texts[i].name }, agentLine: p.agentLine }));
  return `${JSON.stringify({ key, catalogs } satisfies CacheFile)}\n`;
}

/**
 * The cached parse of `texts`, with each `source` set to `sourceOf(name)`, or undefined when
 * there is no cache file, it was made from other texts, or it cannot be read (then the YAML is
 * parsed as usual).
 */
export function readCatalogCache(
  key: string,
  texts: CatalogText[],
  sourceOf: (name: string) => string,
  file: string = CATALOG_CACHE_FILE,
): { catalog: Catalog; agentLine: number }[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return catalogsFromCache(text, key, texts, sourceOf);
}

/** The catalogs a cache file's text holds, when it was made from `texts` (`key`); else undefined. */
export function catalogsFromCache(text: string, key: string, texts: CatalogText[], sourceOf: (name: string) => string): { catalog: Catalog; agentLine: number }[] | undefined {
  let cache: CacheFile;
  try {
    cache = JSON.parse(text) as CacheFile;
  } catch {
    return undefined;
  }
  if (cache?.key !== key || !Array.isArray(cache.catalogs) || cache.catalogs.length !== texts.length) return undefined;
  if (cache.catalogs.some((c, i) => c?.catalog?.source !== texts[i].name)) return undefined;
  // Assigned in place: the key keeps its place, so the catalog is the parse's object key for key.
  for (const c of cache.catalogs) c.catalog.source = sourceOf(c.catalog.source);
  return cache.catalogs;
}
