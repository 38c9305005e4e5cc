// The parsers' libraries for config files (YAML, TOML, JSONC) and zstd, loaded when first used:
// a thread that meets only JSONL logs, most of an analysis, never loads them, and they took
// 55-60 ms of each thread's start (yaml alone 36-39 ms). `require`, not `import()`: the callers
// are synchronous; each package ships a CommonJS build with the same API.
import { createRequire } from 'node:module';
import type * as Fzstd from 'fzstd';
import type * as Jsonc from 'jsonc-parser';
import type * as Toml from 'smol-toml';
import type * as Yaml from 'yaml';

const load = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;
let jsonc: typeof Jsonc | undefined;
let toml: typeof Toml | undefined;
let fzstd: typeof Fzstd | undefined;

/** The `yaml` package, loaded on first use. */
export const yamlLib = (): typeof Yaml => (yaml ??= load('yaml') as typeof Yaml);
/** The `jsonc-parser` package, loaded on first use. */
export const jsoncLib = (): typeof Jsonc => (jsonc ??= load('jsonc-parser') as typeof Jsonc);
/** The `smol-toml` package, loaded on first use. */
export const tomlLib = (): typeof Toml => (toml ??= load('smol-toml') as typeof Toml);
/** The `fzstd` package, loaded on first use. */
export const zstdLib = (): typeof Fzstd => (fzstd ??= load('fzstd') as typeof Fzstd);
