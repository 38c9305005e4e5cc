import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatSummary, globRoot, OUTPUT_FILES } from './host.js';
import * as main from './index.js';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Every module `entry` loads at run time (type-only imports are erased), by path from src. */
function runtimeImports(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
      const spec = m[1];
      if (spec.startsWith('.')) todo.push(join(dirname(file), spec).replace(/\.js$/, '.ts'));
      else packages.add(spec);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe('the host entry (@aitrail/analyzer/host)', () => {
  it('loads no package but node built-ins: the CLI process imports it before the child starts', () => {
    const { files, packages } = runtimeImports('host.ts');
    expect(packages.filter((p) => !p.startsWith('node:'))).toEqual([]);
    expect(files).not.toContain('index.ts');
    expect(files.length).toBeLessThan(6);
  });

  it('exports the same functions as the main entry', () => {
    expect(formatSummary).toBe(main.formatSummary);
    expect(globRoot).toBe(main.globRoot);
    expect(OUTPUT_FILES).toBe(main.OUTPUT_FILES);
    expect(globRoot('.copilot/session-state/**/events.jsonl')).toBe('.copilot/session-state');
  });
});
