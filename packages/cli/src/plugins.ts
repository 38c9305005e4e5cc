import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentPlugin } from '@aitrail/parsers';

/** A plugin that could not be loaded; the message says what was expected and what to do. */
export class PluginError extends Error {}

/** A loaded plugin and the name the user gave it. */
export interface LoadedPlugin {
  spec: string;
  /** The module file it was imported from (the analysis worker imports it again from there). */
  file: string;
  plugin: AgentPlugin;
}

/** Plugin names from `--plugin` flags and `AITRAIL_PLUGINS` (comma or path-delimiter separated). */
export function pluginSpecs(flags: readonly string[] | undefined, env: string | undefined = process.env.AITRAIL_PLUGINS): string[] {
  const fromEnv = (env ?? '')
    .split(delimiter === ';' ? /[;,]/ : /[:,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set([...(flags ?? []), ...fromEnv])];
}

function looksLikePath(spec: string): boolean {
  return spec.startsWith('.') || isAbsolute(spec) || spec.includes('\\') || /\.(c|m)?js$/.test(spec);
}

/** The ESM entry of a package folder: exports["."] (import, default) or main. */
function packageEntry(dir: string): string {
  const pkgPath = join(dir, 'package.json');
  if (!existsSync(pkgPath)) return join(dir, 'index.js');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports?: unknown; main?: string };
  const pick = (e: unknown): string | undefined => {
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object') {
      const o = e as Record<string, unknown>;
      if ('.' in o) return pick(o['.']);
      for (const k of ['import', 'node', 'default']) if (k in o) return pick(o[k]);
    }
    return undefined;
  };
  return join(dir, pick(pkg.exports) ?? pkg.main ?? 'index.js');
}

/** Resolve a plugin name from the user's working directory: a path, or a package in node_modules. */
export function resolvePlugin(spec: string, cwd: string = process.cwd()): string {
  if (looksLikePath(spec)) {
    const p = resolve(cwd, spec);
    if (!existsSync(p)) throw new PluginError(`plugin ${spec}: expected a module file or package folder, found nothing at ${p}; check the path`);
    return statSync(p).isDirectory() ? packageEntry(p) : p;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const cand = join(dir, 'node_modules', ...spec.split('/'));
    if (existsSync(join(cand, 'package.json'))) return packageEntry(cand);
    if (dirname(dir) === dir) break;
  }
  try {
    return createRequire(join(resolve(cwd), 'noop.js')).resolve(spec);
  } catch {
    throw new PluginError(`plugin ${spec}: expected an installed package (node_modules/${spec} from ${cwd} upward) or a path, found neither; install it (npm i ${spec}) or pass its path`);
  }
}

/** Check a module's default export is an AgentPlugin; return it or throw a clear error. */
export function validatePlugin(spec: string, value: unknown): AgentPlugin {
  const fail = (found: string): never => {
    throw new PluginError(`plugin ${spec}: expected a default export that is an AgentPlugin {agent: string, parsers: Parser[], catalog?: string}, found ${found}; see docs/formats.md (Plugins)`);
  };
  if (!value || typeof value !== 'object') fail(value === undefined ? 'no default export' : typeof value);
  const p = value as Record<string, unknown>;
  if (typeof p.agent !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(p.agent)) fail(`agent ${JSON.stringify(p.agent)} (a lower-case id like my-agent is needed)`);
  if (!Array.isArray(p.parsers)) fail('no parsers array');
  if (p.catalog !== undefined && typeof p.catalog !== 'string') fail('a catalog that is not YAML text');
  (p.parsers as unknown[]).forEach((x, i) => {
    const q = (x ?? {}) as Record<string, unknown>;
    for (const f of ['wants', 'secondary', 'secondaryToleranceSeconds', 'parse']) if (typeof q[f] !== 'function') fail(`parsers[${i}] without a ${f}() function`);
    if (typeof q.name !== 'string' || q.name === '') fail(`parsers[${i}] without a name`);
    if (q.agent !== p.agent) fail(`parsers[${i}] (${String(q.name)}) for agent ${JSON.stringify(q.agent)}, not the plugin's ${p.agent}`);
    if (!Array.isArray(q.patterns)) fail(`parsers[${i}] (${String(q.name)}) without a patterns array`);
    if (typeof q.recordsSync !== 'boolean') fail(`parsers[${i}] (${String(q.name)}) without a boolean recordsSync`);
  });
  return value as AgentPlugin;
}

/** Import a resolved plugin module and validate its default export. */
export async function importPlugin(spec: string, file: string): Promise<AgentPlugin> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (e) {
    throw new PluginError(`plugin ${spec}: expected a loadable ES module at ${file}, found an error loading it (${(e as Error).message}); build the plugin first`);
  }
  return validatePlugin(spec, mod.default);
}

/** Load every plugin named by flags and AITRAIL_PLUGINS; duplicate parsers are an error. */
export async function loadPlugins(flags: readonly string[] | undefined, cwd: string = process.cwd()): Promise<LoadedPlugin[]> {
  const out: LoadedPlugin[] = [];
  const specs = pluginSpecs(flags);
  if (specs.length === 0) return out;
  // Imported only when there are plugins to check against the built-in parsers (CLI start-up).
  const { builtInPlugins } = await import('@aitrail/parsers');
  const seen = new Set(builtInPlugins.flatMap((p) => p.parsers.map((q) => `${q.agent}/${q.name}`)));
  for (const spec of specs) {
    const file = resolvePlugin(spec, cwd);
    const plugin = await importPlugin(spec, file);
    for (const q of plugin.parsers) {
      const id = `${q.agent}/${q.name}`;
      if (seen.has(id)) throw new PluginError(`plugin ${spec}: expected parser names not already registered, found ${id} twice; pass each plugin once`);
      seen.add(id);
    }
    out.push({ spec, file, plugin });
  }
  return out;
}
