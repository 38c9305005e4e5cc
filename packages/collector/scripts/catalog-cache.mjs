// Writes dist/builtin-catalogs.json: the built-in catalogs parsed and checked once at build time,
// read at start-up when the catalog texts and the editor table are still the ones parsed here
// (src/catalog-cache.ts). A catalog that does not validate fails the build, as it would every run.
import { writeFileSync } from 'node:fs';
import { builtinCatalogTexts, parseCatalog, BUILTIN_CATALOG_DIR } from '../dist/catalog.js';
import { CATALOG_CACHE_FILE, catalogCacheKey, catalogCacheText } from '../dist/catalog-cache.js';
import { editorTableText } from '../dist/editors.js';

const texts = builtinCatalogTexts();
const parsed = texts.map((t) => parseCatalog(BUILTIN_CATALOG_DIR + t.name, t.text));
writeFileSync(CATALOG_CACHE_FILE, catalogCacheText(catalogCacheKey(editorTableText(), texts), texts, parsed));
