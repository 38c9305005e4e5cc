// Writes dist/aitrail-collect.cjs: the collector (dist/standalone.js) with the built-in catalogs
// embedded, bundled by esbuild into one CommonJS file that runs with plain Node 18 or later.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const catalogDir = path.join(pkg, 'catalog');
const embedded = {
  catalogs: readdirSync(catalogDir)
    .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(catalogDir, name), 'utf8') })),
  editors: readFileSync(path.join(catalogDir, 'families', 'editors.yaml'), 'utf8'),
};
// The catalogs parsed (scripts/catalog-cache.mjs, run before this): the bundle starts without
// parsing YAML, as the CLI does; its sources are named catalog/<file>, as embedded ones are.
embedded.parsed = readFileSync(path.join(pkg, 'dist', 'builtin-catalogs.json'), 'utf8');
// src/libs.ts loads yaml and smol-toml on first use with a runtime require, which a bundle cannot
// follow: here it becomes static imports, so both stay inside the one file.
const staticLibs = {
  name: 'static-libs',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/libs\.js$/ }, (args) => (args.importer.startsWith(path.join(pkg, 'dist')) ? { path: 'libs', namespace: 'static-libs' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'static-libs' }, () => ({
      contents: "import * as toml from 'smol-toml';\nimport * as yaml from 'yaml';\nexport const yamlLib = () => yaml;\nexport const tomlLib = () => toml;\n",
      resolveDir: pkg,
    }));
  },
};
await build({
  plugins: [staticLibs],
  stdin: {
    contents: `import { runStandalone } from './dist/standalone.js';\nrunStandalone(process.argv.slice(2), ${JSON.stringify(embedded)}, __filename).then((code) => { process.exitCode = code; });\n`,
    resolveDir: pkg,
    sourcefile: 'aitrail-collect-entry.js',
  },
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  outfile: path.join(pkg, 'dist', 'aitrail-collect.cjs'),
  // The catalog folder is embedded; import.meta.url only names where it would have been.
  define: { 'import.meta.url': '__aitrail_url' },
  banner: { js: "#!/usr/bin/env node\n'use strict';\nconst __aitrail_url = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'inline',
  logLevel: 'warning',
});
