// The YAML and TOML libraries, loaded when first used: every `aitrail` command loads the
// collector, and the built-in catalogs come parsed from the build's cache, so most runs never
// parse YAML or TOML; loading `yaml` and `smol-toml` took 45-50 ms of each start. `require`, not
// `import()`: the callers are synchronous. The one-file collector's bundle replaces this module
// with static imports (scripts/bundle-collect.mjs), so its dependencies stay inside the file.
import { createRequire } from 'node:module';
import type * as Toml from 'smol-toml';
import type * as Yaml from 'yaml';

const load = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;
let toml: typeof Toml | undefined;

/** The `yaml` package, loaded on first use. */
export const yamlLib = (): typeof Yaml => (yaml ??= load('yaml') as typeof Yaml);
/** The `smol-toml` package, loaded on first use. */
export const tomlLib = (): typeof Toml => (toml ??= load('smol-toml') as typeof Toml);
