import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_CATALOG_DIR, builtinCatalogTexts, parseBuiltinCatalogs, parseCatalog } from './catalog.js';
import { catalogCacheKey, catalogCacheText, readCatalogCache } from './catalog-cache.js';
import { editorTableText } from './editors.js';
import { type EmbeddedCatalogs, useEmbeddedCatalogs } from './embedded.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-catalog-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const texts = builtinCatalogTexts();
const fresh = () => texts.map((t) => parseCatalog(BUILTIN_CATALOG_DIR + t.name, t.text));

/** A cache file made from `from` (parsed as the built-in texts), as the build makes it. */
function cacheOf(from = texts): string {
  const file = join(dir, `cache-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, catalogCacheText(catalogCacheKey(editorTableText(), from), from, fresh()));
  return file;
}

describe('built-in catalog cache', () => {
  it('gives the very catalogs the YAML parse gives, key for key', () => {
    const file = cacheOf();
    const cached = readCatalogCache(catalogCacheKey(editorTableText(), texts), texts, (n) => BUILTIN_CATALOG_DIR + n, file);
    expect(cached).toBeDefined();
    expect(JSON.stringify(cached)).toBe(JSON.stringify(fresh()));
    expect(cached!.map((c) => c.catalog.source)).toEqual(texts.map((t) => BUILTIN_CATALOG_DIR + t.name));
  });

  it('is not used once a catalog text changed: the edited text is parsed', () => {
    const file = cacheOf();
    const i = texts.findIndex((t) => t.name === 'copilot-cli.yaml');
    const edited = texts.map((t, j) => (j === i ? { ...t, text: t.text.replace(/^name: .*$/m, 'name: Edited After The Build') } : t));
    expect(edited[i].text).not.toBe(texts[i].text);
    expect(readCatalogCache(catalogCacheKey(editorTableText(), edited), edited, (n) => n, file)).toBeUndefined();
    const got = parseBuiltinCatalogs(edited, file);
    expect(got[i].catalog.name).toBe('Edited After The Build');
  });

  it('is not used when missing, unreadable JSON, or made for other file names', () => {
    const key = catalogCacheKey(editorTableText(), texts);
    expect(readCatalogCache(key, texts, (n) => n, join(dir, 'absent.json'))).toBeUndefined();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"key": "cut');
    expect(readCatalogCache(key, texts, (n) => n, bad)).toBeUndefined();
    const renamed = texts.map((t, j) => (j === 0 ? { ...t, name: `x-${t.name}` } : t));
    const file = cacheOf(renamed);
    // The same texts under other names: the key differs, and so would the names.
    expect(readCatalogCache(key, texts, (n) => n, file)).toBeUndefined();
    // A broken cache never stops a run: the YAML is parsed.
    expect(JSON.stringify(parseBuiltinCatalogs(texts, bad))).toBe(JSON.stringify(fresh()));
  });

  it('in a bundle, the embedded parse stands for the embedded texts, and an edited text is parsed', () => {
    const parsed = catalogCacheText(catalogCacheKey(editorTableText(), texts), texts, fresh());
    const asBundle = () => texts.map((t) => parseCatalog(`catalog/${t.name}`, t.text));
    try {
      useEmbeddedCatalogs({ catalogs: texts, editors: editorTableText(), parsed });
      expect(JSON.stringify(parseBuiltinCatalogs())).toBe(JSON.stringify(asBundle()));
      const i = texts.findIndex((t) => t.name === 'aider.yaml');
      const edited = texts.map((t, j) => (j === i ? { ...t, text: t.text.replace(/^name: .*$/m, 'name: Edited In The Bundle') } : t));
      useEmbeddedCatalogs({ catalogs: edited, editors: editorTableText(), parsed });
      expect(parseBuiltinCatalogs()[i].catalog.name).toBe('Edited In The Bundle');
    } finally {
      useEmbeddedCatalogs(undefined as unknown as EmbeddedCatalogs);
    }
  });

  it('the build wrote one for the current catalogs (the built CLI starts without parsing YAML)', () => {
    const built = fileURLToPath(new URL('../dist/builtin-catalogs.json', import.meta.url));
    if (!existsSync(built)) return expect.fail(`no ${built}: run pnpm build (scripts/catalog-cache.mjs writes it)`);
    const { key } = JSON.parse(readFileSync(built, 'utf8')) as { key: string };
    expect(key).toBe(catalogCacheKey(editorTableText(), texts));
  });
});
