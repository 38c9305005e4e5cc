import { describe, expect, it } from 'vitest';
import { CatalogError, loadCatalogs, parseCatalog } from './catalog.js';

const ok = `agent: demo\nname: Demo\ncollect: [".demo/**"]\n`;

function errorOf(text: string, source = 'demo.yaml'): CatalogError {
  try {
    parseCatalog(source, text);
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return err as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

describe('catalog validator', () => {
  it('loads every built-in catalog, copilot-cli among them', () => {
    const cats = loadCatalogs();
    const cop = cats.find((c) => c.agent === 'copilot-cli');
    expect(cop?.collect).toContain('.copilot/**');
    expect(cop?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(cop?.version).toBe('1');
  });
  it('reports an unknown key with its line number', () => {
    const e = errorOf(`${ok}colect: ["x/**"]\n`);
    expect(e.line).toBe(4);
    expect(e.message).toMatch(/^demo\.yaml:4: unknown key "colect"/);
  });
  it('reports an unknown key inside project and project_hints', () => {
    expect(errorOf(`${ok}project:\n  collect: [a]\n  secret: [b]\n`).line).toBe(6);
    expect(errorOf(`${ok}project_hints:\n  - {file: a/*.json, format: json, path: cwd, max: 1}\n`).message).toMatch(/unknown key "max"/);
  });
  it('rejects bad globs with their line', () => {
    const e = errorOf(`${ok}exclude:\n  - ".demo/[unclosed"\n`);
    expect(e.line).toBe(5);
    expect(e.message).toMatch(/bad glob/);
    expect(errorOf(`agent: demo\nname: D\ncollect: ["/abs/**"]\n`).message).toMatch(/relative to the home/);
    expect(errorOf(`agent: demo\nname: D\ncollect: ["a\\\\b"]\n`).message).toMatch(/backslash/);
    expect(errorOf(`agent: demo\nname: D\ncollect: ["../x"]\n`).message).toMatch(/"\.\."/);
    expect(errorOf(`${ok}system: ["etc/x"]\n`).message).toMatch(/absolute/);
  });
  it('rejects an agent id that differs from the file name', () => {
    expect(errorOf(ok, '/x/other.yaml').message).toMatch(/differs from the file name/);
  });
  it('rejects duplicate agent ids across catalogs, naming both', () => {
    expect(() => loadCatalogs({ texts: [{ source: 'plugin-a', text: ok }, { source: 'plugin-b', text: ok }] })).toThrow(
      /plugin-b:1: duplicate agent id "demo" \(already defined in plugin-a:1\)/,
    );
    const cop = `agent: copilot-cli\nname: X\ncollect: [a/**]\n`;
    expect(() => loadCatalogs({ texts: [{ source: 'p', text: cop }] })).toThrow(/duplicate agent id "copilot-cli"/);
  });
  it('rejects YAML syntax errors with a line and missing required keys', () => {
    expect(errorOf(`agent: demo\nname: [\n`).line).toBeGreaterThan(0);
    expect(errorOf(`agent: demo\ncollect: [a/**]\n`).message).toMatch(/missing required key "name"/);
  });
  it('validates project hints', () => {
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: toml, path: cwd}\n`).message).toMatch(/format/);
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: json}\n`).message).toMatch(/exactly one of/);
    const { catalog } = parseCatalog('demo.yaml', `${ok}project_hints:\n  - {file: a.jsonl, format: jsonl, path: x.y, max_lines: 2}\n`);
    expect(catalog.project_hints).toEqual([{ file: 'a.jsonl', format: 'jsonl', path: 'x.y', max_lines: 2 }]);
  });
  it('refuses aliases instead of expanding them', () => {
    expect(errorOf(`agent: demo\nname: D\ncollect: &a [".x/**"]\nexclude: *a\n`).message).toMatch(/must be a list/);
  });
});
