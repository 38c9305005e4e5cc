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
  it('reads project.exclude, collect_if and list env_homes, and validates them', () => {
    const text = `${ok}env_homes:\n  - {var: DEMO_DIR, rel: .demo, separator: ","}\ncollect_if:\n  - {dir: ".demo-*", contains: [projects, history.jsonl]}\nproject:\n  collect: ["**/DEMO.md"]\n  exclude: ["**/.demo/worktrees/**"]\n`;
    const { catalog } = parseCatalog('demo.yaml', text);
    expect(catalog.env_homes).toEqual([{ var: 'DEMO_DIR', rel: '.demo', separator: ',' }]);
    expect(catalog.collect_if).toEqual([{ dir: '.demo-*', contains: ['projects', 'history.jsonl'] }]);
    expect(catalog.project).toEqual({ collect: ['**/DEMO.md'], secrets: [], exclude: ['**/.demo/worktrees/**'] });
    expect(errorOf(`${ok}project:\n  exclude: ["/abs/**"]\n`).message).toMatch(/demo\.yaml:5: bad glob "\/abs\/\*\*" in "exclude"/);
    expect(errorOf(`${ok}collect_if:\n  - {dir: ".demo-*/**", contains: [x]}\n`).message).toMatch(/names the directory itself/);
    expect(errorOf(`${ok}collect_if:\n  - {dir: ".demo-*", contains: ["a/b"]}\n`).message).toMatch(/plain names .*found "a\/b"/);
    expect(errorOf(`${ok}collect_if:\n  - {dir: ".demo-*", contains: []}\n`).message).toMatch(/non-empty list/);
    expect(errorOf(`${ok}collect_if:\n  - {dir: ".demo-*"}\n`).message).toMatch(/missing required key "contains"/);
    expect(errorOf(`${ok}collect_if:\n  - {dir: ".demo-*", contains: [x], when: y}\n`).message).toMatch(/unknown key "when"/);
  });
  it('takes max_lines: all for jsonl hints only', () => {
    const { catalog } = parseCatalog('demo.yaml', `${ok}project_hints:\n  - {file: a.jsonl, format: jsonl, path: p, max_lines: all}\n`);
    expect(catalog.project_hints[0].max_lines).toBe('all');
    expect(errorOf(`${ok}project_hints:\n  - {file: a.jsonl, format: jsonl, path: p, max_lines: some}\n`).message).toMatch(/positive integer or "all", found "some"/);
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: json, path: p, max_lines: 3}\n`).message).toMatch(/jsonl only/);
  });
  it('accepts drive-letter system globs (Windows) beside /-rooted ones, never in home globs', () => {
    const { catalog } = parseCatalog('demo.yaml', `${ok}system: ["/etc/demo/**", "C:/Program Files/Demo/**"]\n`);
    expect(catalog.system).toEqual(['/etc/demo/**', 'C:/Program Files/Demo/**']);
    expect(errorOf(`${ok}system: ["C:\\\\Program Files\\\\Demo"]\n`).message).toMatch(/forward slashes/);
    expect(errorOf(`${ok}system: ["Program Files/Demo/**"]\n`).message).toMatch(/drive letter "C:\/\.\.\."/);
    expect(errorOf(`agent: demo\nname: D\ncollect: ["C:/x/**"]\n`).message).toMatch(/relative to the home/);
  });
});
