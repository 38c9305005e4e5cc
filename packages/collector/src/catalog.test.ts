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
    expect(cop?.version).toBe('2');
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
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: ini, path: cwd}\n`).message).toMatch(/"format" must be one of yaml, json, jsonl, toml, xml, text, found "ini"/);
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: json}\n`).message).toMatch(/needs "path" or "keys_of"/);
    const { catalog } = parseCatalog('demo.yaml', `${ok}project_hints:\n  - {file: a.jsonl, format: jsonl, path: x.y, max_lines: 2}\n`);
    expect(catalog.project_hints).toEqual([{ file: 'a.jsonl', files: ['a.jsonl'], format: 'jsonl', path: ['x.y'], max_lines: 2 }]);
  });
  it('refuses aliases instead of expanding them', () => {
    expect(errorOf(`agent: demo\nname: D\ncollect: &a [".x/**"]\nexclude: *a\n`).message).toMatch(/must be a list/);
  });
  it('reads project.exclude, collect_if and list env_homes, and validates them', () => {
    const text = `${ok}env_homes:\n  - {var: DEMO_DIR, rel: .demo, separator: ","}\ncollect_if:\n  - {dir: ".demo-*", contains: [projects, history.jsonl]}\nproject:\n  collect: ["**/DEMO.md"]\n  exclude: ["**/.demo/worktrees/**"]\n`;
    const { catalog } = parseCatalog('demo.yaml', text);
    expect(catalog.env_homes).toEqual([{ var: 'DEMO_DIR', rel: '.demo', separator: ',' }]);
    expect(catalog.collect_if).toEqual([{ dir: '.demo-*', dirs: ['.demo-*'], contains: ['projects', 'history.jsonl'] }]);
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
    expect(errorOf(`${ok}project_hints:\n  - {file: a.json, format: json, path: p, max_lines: 3}\n`).message).toMatch(/jsonl and text only/);
  });
  it('accepts drive-letter system globs (Windows) beside /-rooted ones, never in home globs', () => {
    const { catalog } = parseCatalog('demo.yaml', `${ok}system: ["/etc/demo/**", "C:/Program Files/Demo/**"]\n`);
    expect(catalog.system).toEqual(['/etc/demo/**', 'C:/Program Files/Demo/**']);
    expect(errorOf(`${ok}system: ["C:\\\\Program Files\\\\Demo"]\n`).message).toMatch(/forward slashes/);
    expect(errorOf(`${ok}system: ["Program Files/Demo/**"]\n`).message).toMatch(/drive letter "C:\/\.\.\."/);
    expect(errorOf(`agent: demo\nname: D\ncollect: ["C:/x/**"]\n`).message).toMatch(/relative to the home/);
  });

  it('expands editor anchors in home globs, keeping the written form', () => {
    const text = `agent: demo\nname: D\ncollect: ["@cursor/User/globalStorage/demo.ext/**", ".demo/**"]\nexclude: ["@cursor/User/globalStorage/demo.ext/cache/**"]\nsecrets: ["@vscode-family/User/globalStorage/demo.ext/secrets.json"]\ncollect_if:\n  - {dir: "@cursor/User/globalStorage/demo.ext/*", contains: [x]}\nproject_hints:\n  - {file: "@cursor/User/workspaceStorage/*/workspace.json", format: json, path: folder}\n`;
    const { catalog } = parseCatalog('demo.yaml', text);
    const cursor = ['.config/Cursor', 'Library/Application Support/Cursor', 'AppData/Roaming/Cursor', '.cursor-server/data'];
    expect(catalog.collect).toEqual([...cursor.map((d) => `${d}/User/globalStorage/demo.ext/**`), '.demo/**']);
    expect(catalog.written.collect).toEqual(['@cursor/User/globalStorage/demo.ext/**', '.demo/**']);
    expect(catalog.exclude).toEqual(cursor.map((d) => `${d}/User/globalStorage/demo.ext/cache/**`));
    expect(catalog.secrets).toContain('.vscode-server-insiders/data/User/globalStorage/demo.ext/secrets.json');
    expect(catalog.written.secrets).toEqual(['@vscode-family/User/globalStorage/demo.ext/secrets.json']);
    expect(catalog.collect_if[0]).toEqual({ dir: '@cursor/User/globalStorage/demo.ext/*', dirs: cursor.map((d) => `${d}/User/globalStorage/demo.ext/*`), contains: ['x'] });
    expect(catalog.project_hints[0].file).toBe('@cursor/User/workspaceStorage/*/workspace.json');
    expect(catalog.project_hints[0].files).toEqual(cursor.map((d) => `${d}/User/workspaceStorage/*/workspace.json`));
  });
  it('refuses an unknown anchor with the file and line, wherever a home glob goes', () => {
    const e = errorOf(`${ok}secrets:\n  - ".x/y"\n  - "@cursr/User/x"\n`);
    expect(e.message).toMatch(/^demo\.yaml:6: bad glob "@cursr\/User\/x" in "secrets": unknown anchor "@cursr"; known anchors: @vscode-family/);
    expect(errorOf(`${ok}project_hints:\n  - {file: "@nope/a.json", format: json, path: p}\n`).line).toBe(5);
    expect(errorOf(`${ok}collect_if:\n  - {dir: "@nope/x", contains: [a]}\n`).message).toMatch(/unknown anchor "@nope"/);
    // The expansion is checked as a glob too.
    expect(errorOf(`${ok}exclude: ["@cursor/User/[bad"]\n`).message).toMatch(/bad glob "@cursor\/User\/\[bad" in "exclude"/);
  });
  it('takes env_homes layouts and validates them', () => {
    const { catalog } = parseCatalog('demo.yaml', `${ok}env_homes:\n  - {var: DEMO_CACHE, rel: .cache/demo, layouts: [linux]}\n  - {var: DEMO_CACHE, rel: Library/Caches/demo, layouts: [darwin]}\n`);
    expect(catalog.env_homes).toEqual([
      { var: 'DEMO_CACHE', rel: '.cache/demo', layouts: ['linux'] },
      { var: 'DEMO_CACHE', rel: 'Library/Caches/demo', layouts: ['darwin'] },
    ]);
    expect(errorOf(`${ok}env_homes:\n  - {var: X, rel: .x, layouts: [macos]}\n`).message).toMatch(/linux, darwin or win32, found "macos"/);
    expect(errorOf(`${ok}env_homes:\n  - {var: X, rel: "@cursor/User"}\n`).message).toMatch(/plain home-relative path/);
    // "." : the variable names a whole home (GEMINI_CLI_HOME); other dot forms stay refused.
    expect(parseCatalog('demo.yaml', `${ok}env_homes:\n  - {var: DEMO_HOME, rel: .}\n`).catalog.env_homes).toEqual([{ var: 'DEMO_HOME', rel: '.' }]);
    for (const rel of ['./x', '..', 'x/.']) expect(errorOf(`${ok}env_homes:\n  - {var: X, rel: ${rel}}\n`).message).toMatch(/plain home-relative path or "\." \(the home itself\)/);
  });
  it('reads the extended hint keys and refuses what cannot work', () => {
    const text = `${ok}project_hints:
  - {file: a.jsonl, format: jsonl, path: [data.context.cwd, data.cwd], where: {type: [session.start, session.context_changed]}, max_lines: all}
  - {file: r.xml, format: xml, path: "map/entry@key", home_token: $USER_HOME$}
  - {file: c.toml, format: toml, keys_of: projects}
  - {file: w.json, format: json, path: workspace, dirname: true}
  - {file: t.md, format: text, regex: "Current Working Directory \\\\(([^)]+)\\\\)"}
`;
    const h = parseCatalog('demo.yaml', text).catalog.project_hints;
    expect(h[0]).toMatchObject({ path: ['data.context.cwd', 'data.cwd'], where: [{ path: 'type', values: ['session.start', 'session.context_changed'] }], max_lines: 'all' });
    expect(h[1]).toMatchObject({ format: 'xml', path: ['map/entry@key'], home_token: '$USER_HOME$' });
    expect(h[2]).toMatchObject({ format: 'toml', keys_of: 'projects' });
    expect(h[3]).toMatchObject({ dirname: true });
    expect(h[4].regex).toBe('Current Working Directory \\(([^)]+)\\)');
    const bad = (hint: string) => errorOf(`${ok}project_hints:\n  - ${hint}\n`).message;
    expect(bad('{file: a.xml, format: xml, path: "map//entry@key"}')).toMatch(/bad xml selector "map\/\/entry@key"/);
    expect(bad('{file: a.json, format: json, path: "a..b"}')).toMatch(/bad json selector "a\.\.b"/);
    expect(bad('{file: a.xml, format: xml, keys_of: x}')).toMatch(/"keys_of" does not apply to format xml/);
    expect(bad('{file: a.json, format: json, path: p, where: {type: x}}')).toMatch(/"where" applies to format jsonl only/);
    expect(bad('{file: a.txt, format: text, path: p}')).toMatch(/a text hint takes "regex" \(or nothing: each line is a path\), not "path"/);
    // No regex: each line read is the value (a file that holds just a path).
    expect(parseCatalog('demo.yaml', `${ok}project_hints:\n  - {file: .project_root, format: text}\n`).catalog.project_hints[0]).toEqual({ file: '.project_root', files: ['.project_root'], format: 'text' });
    expect(bad('{file: a.txt, format: text, regex: "(\\\\S+)"}')).toMatch(/at least two literal characters/);
    expect(bad('{file: a.txt, format: text, regex: "cwd=\\\\S+"}')).toMatch(/capture group/);
    expect(bad('{file: a.txt, format: text, regex: "cwd=((a+)+)"}')).toMatch(/repeated group may hold neither/);
    expect(bad('{file: a.txt, format: text, regex: "cwd=(a|ab)*(x)"}')).toMatch(/repeated group may hold neither/);
    expect(bad('{file: a.txt, format: text, regex: "cwd=(a)\\\\1"}')).toMatch(/backreferences/);
    expect(bad('{file: a.txt, format: text, regex: "cwd=(["}')).toMatch(/not a valid regular expression/);
    expect(bad('{file: a.json, format: json, path: p, regex: "cwd=(x)"}')).toMatch(/"regex" applies to format text only/);
    expect(bad('{file: a.json, format: json, path: p, dirname: yes please}')).toMatch(/"dirname" must be true or false/);
  });
});
