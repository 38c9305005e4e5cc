import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HintRule } from './catalog.js';
import { fromUri, fromWindowsVerbatim, hintTarget, literalPrefix, textMatcher } from './hint-values.js';
import { parseXmlSelector, XML_MAX_DEPTH, xmlValues } from './hint-xml.js';
import { forEachLine, HINT_MAX_LINE_BYTES, HINT_MAX_VALUES, hintText, readHintValues } from './project-hints.js';
import { targetHome } from './projects.js';

const T = mkdtempSync(join(tmpdir(), 'aitrail-hint-formats-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(T, name);
  writeFileSync(p, text);
  return p;
};

describe('project hints: values inside arrays and objects', () => {
  it('reads every element of an array ([]) and every value of an object (*)', () => {
    const ws = JSON.stringify({ folders: [{ path: '/srv/a' }, { name: 'x' }, { path: '/srv/b' }, { path: 'relative/c' }] });
    expect(hintText({ format: 'json', path: ['folders[].path'] }, ws)).toEqual({ values: ['/srv/a', '/srv/b'], remote: [] });
    // Cline's taskHistory.json is a top-level array.
    const history = JSON.stringify([{ id: '1', cwdOnTaskInitialization: '/srv/p' }, { id: '2', cwdOnTaskInitialization: '/srv/p' }, { id: '3' }]);
    expect(hintText({ format: 'json', path: ['[].cwdOnTaskInitialization'] }, history).values).toEqual(['/srv/p']);
    const byId = JSON.stringify({ sessions: { s1: { cwd: '/srv/s1' }, s2: { cwd: '/srv/s2' } } });
    expect(hintText({ format: 'json', path: ['sessions.*.cwd'] }, byId).values).toEqual(['/srv/s1', '/srv/s2']);
    expect(hintText({ format: 'json', keys_of: '[]' }, JSON.stringify([{ '/srv/k': 1 }])).values).toEqual(['/srv/k']);
  });
});

describe('project hints: Windows verbatim paths', () => {
  it('drops the \\\\?\\ prefix before a drive, keeps shares apart, refuses device and volume paths', () => {
    expect(fromWindowsVerbatim('\\\\?\\C:\\Users\\me\\proj')).toEqual({ path: 'C:\\Users\\me\\proj' });
    expect(fromWindowsVerbatim('\\\\?\\c:')).toEqual({ path: 'c:\\' });
    expect(fromWindowsVerbatim('\\\\?\\UNC\\srv\\share\\p')).toEqual({ remote: '\\\\srv\\share\\p' });
    expect(fromWindowsVerbatim('\\\\srv\\share')).toEqual({ remote: '\\\\srv\\share' });
    // Neither a drive nor a share: left as it is, which is not an absolute path, so no root.
    for (const v of ['\\\\.\\PhysicalDrive0', '\\\\?\\Volume{0b1e}\\x', '\\\\srv', '\\\\?\\UNC\\srv']) {
      expect(hintTarget(v, {}, undefined), v).toBeUndefined();
    }
    expect(hintTarget('\\\\?\\C:\\a\\b.code-workspace', { dirname: true }, undefined)).toEqual({ path: 'C:\\a' });
  });
});

describe('project hints: URIs', () => {
  it('decodes file:// URIs, Windows drives included, and keeps other hosts apart', () => {
    expect(fromUri('file:///home/u/my%20proj')).toEqual({ path: '/home/u/my proj' });
    expect(fromUri('file:///c%3A/Users/me/proj')).toEqual({ path: 'c:\\Users\\me\\proj' });
    expect(fromUri('file:///C:/Users/me')).toEqual({ path: 'C:\\Users\\me' });
    expect(fromUri('file:///c%3A')).toEqual({ path: 'c:\\' });
    expect(fromUri('file://localhost/srv/x')).toEqual({ path: '/srv/x' });
    expect(fromUri('file://server/share/x')).toEqual({ remote: 'file://server/share/x' });
    expect(fromUri('vscode-remote://ssh-remote%2Bhost/home/u/proj')).toEqual({ remote: 'vscode-remote://ssh-remote+host/home/u/proj' });
    expect(fromUri('file:///bad%ZZ')).toBeUndefined();
    expect(fromUri('file:///a%00b')).toBeUndefined();
    expect(fromUri('/plain/path')).toBeUndefined();
  });

  it('reads workspace.json folders and workspaces (dirname), remote folders counted apart', () => {
    const folder: HintRule = { format: 'json', path: ['folder'] };
    expect(hintText(folder, '{"folder":"file:///home/alex/proj"}')).toEqual({ values: ['/home/alex/proj'], remote: [] });
    expect(hintText(folder, '{"folder":"vscode-remote://wsl%2Bubuntu/home/alex/proj"}')).toEqual({ values: [], remote: ['vscode-remote://wsl+ubuntu/home/alex/proj'] });
    const workspace: HintRule = { format: 'json', path: ['workspace'], dirname: true };
    expect(hintText(workspace, '{"workspace":"file:///c%3A/Users/alex/proj/proj.code-workspace"}').values).toEqual(['c:\\Users\\alex\\proj']);
    expect(hintTarget('/x.code-workspace', { dirname: true }, undefined)).toEqual({ path: '/' });
  });

  it('replaces a home token at the start of a value only', () => {
    expect(hintTarget('$USER_HOME$/src/app', { home_token: '$USER_HOME$' }, '/home/u')).toEqual({ path: '/home/u/src/app' });
    expect(hintTarget('$USER_HOME$/src/app', { home_token: '$USER_HOME$' }, 'C:\\Users\\me')).toEqual({ path: 'C:\\Users\\me\\src\\app' });
    expect(hintTarget('$USER_HOME$', { home_token: '$USER_HOME$' }, '/home/u/')).toEqual({ path: '/home/u' });
    expect(hintTarget('$USER_HOMEX/a', { home_token: '$USER_HOME$' }, '/home/u')).toBeUndefined();
    expect(hintTarget('/srv/$USER_HOME$', { home_token: '$USER_HOME$' }, '/home/u')).toEqual({ path: '/srv/$USER_HOME$' });
  });

  it('maps the home of an image to the path the target knew (for home tokens)', () => {
    expect(targetHome('/mnt/img/Users/sean', 'win32', '/mnt/img')).toBe('C:\\Users\\sean');
    expect(targetHome('/mnt/img/home/sean', 'linux', '/mnt/img')).toBe('/home/sean');
    expect(targetHome('/home/sean', 'linux', undefined)).toBe('/home/sean');
  });
});

describe('project hints: every cwd of a Copilot events.jsonl', () => {
  const rule: HintRule = { format: 'jsonl', path: ['data.context.cwd', 'data.cwd'], where: [{ path: 'type', values: ['session.start', 'session.resume', 'session.context_changed'] }], max_lines: 'all' };
  it('native encoding: the start, each directory change and a resume', async () => {
    const lines = [
      { type: 'session.start', data: { sessionId: 's', context: { cwd: '/srv/a', branch: 'main' } } },
      { type: 'tool.execution_start', data: { arguments: { cwd: '/srv/not-a-project' } } },
      { type: 'session.context_changed', data: { cwd: '/srv/b', gitRoot: '/srv/b' } },
      { type: 'user.message', data: { content: 'session.context_changed /srv/fake' } },
      { type: 'session.context_changed', data: { cwd: '/srv/a' } },
      { type: 'session.resume', data: { context: { cwd: 'C:\\Users\\me\\c' } } },
    ];
    const r = await readHintValues(rule, file('native.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')));
    expect(r).toEqual({ values: ['/srv/a', '/srv/b', 'C:\\Users\\me\\c'], remote: [] });
  });
  it('stringified encoding (seed 001): data values are strings, context is serialized JSON', async () => {
    const lines = [
      { type: 'session.start', data: { sessionId: 's', context: JSON.stringify({ cwd: 'C:\\Users\\AB\\repo', branch: 'dev' }) } },
      { type: 'session.context_changed', data: { cwd: 'C:\\Users\\AB\\other', branch: 'dev-may-3', headCommit: '3e81' } },
      { type: 'assistant.message', data: { content: '{"cwd":"C:\\\\nope"}' } },
    ];
    const r = await readHintValues(rule, file('stringified.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')));
    expect(r.values).toEqual(['C:\\Users\\AB\\repo', 'C:\\Users\\AB\\other']);
  });
});

describe('project hints: a file that holds just a path, and the keys of the document itself', () => {
  it('text without a regex: each line read is the value (Gemini .project_root, no newline at the end)', async () => {
    expect(hintText({ format: 'text' }, '/home/u/shop')).toEqual({ values: ['/home/u/shop'], remote: [] });
    expect(hintText({ format: 'text' }, '  c:\\users\\me\\proj \r\n/second/line')).toEqual({ values: ['c:\\users\\me\\proj'], remote: [] });
    expect(hintText({ format: 'text' }, 'not a path\n')).toEqual({ values: [], remote: [] });
    expect((await readHintValues({ format: 'text' }, file('.project_root', '\uFEFF/srv/app'))).values).toEqual(['/srv/app']);
  });
  it('keys_of "." takes the top-level keys (Gemini trustedFolders.json)', () => {
    const trusted = JSON.stringify({ '/home/u/a': 'TRUST_FOLDER', 'C:\\work\\b': 'TRUST_PARENT', '/home/u/no': 'DO_NOT_TRUST', relative: 'TRUST_FOLDER' });
    expect(hintText({ format: 'json', keys_of: '.' }, trusted).values).toEqual(['/home/u/a', 'C:\\work\\b', '/home/u/no']);
    // An array or a scalar document has no keys.
    expect(hintText({ format: 'json', keys_of: '.' }, '["/a"]').values).toEqual([]);
    expect(hintText({ format: 'json', keys_of: '.' }, '"/a"').values).toEqual([]);
  });
});

describe('project hints: TOML (Codex config.toml)', () => {
  it('reads the keys of [projects."<path>"] tables', () => {
    const toml = 'model = "o3"\n[projects."/home/u/a"]\ntrust_level = "trusted"\n\n[projects.\'C:\\Users\\me\\b\']\ntrust_level = "untrusted"\n';
    expect(hintText({ format: 'toml', keys_of: 'projects' }, toml).values).toEqual(['/home/u/a', 'C:\\Users\\me\\b']);
  });
  it('reads Windows keys in their verbatim form (\\\\?\\C:\\...) as the path, and a share as a folder on another host', () => {
    // Real Windows config.toml keys: literal strings, canonicalized with the \\?\ prefix or not.
    const toml = [
      "[projects.'\\\\?\\C:\\Users\\me\\repo']",
      'trust_level = "trusted"',
      "[projects.'\\\\?\\D:\\']",
      'trust_level = "trusted"',
      "[projects.'C:\\Users\\me']",
      'trust_level = "trusted"',
      "[projects.'\\\\?\\UNC\\fs01\\team\\proj']",
      'trust_level = "untrusted"',
      "[projects.'\\\\?\\Volume{0b1e}\\x']",
      'trust_level = "trusted"',
    ].join('\n');
    expect(hintText({ format: 'toml', keys_of: 'projects' }, toml)).toEqual({
      values: ['C:\\Users\\me\\repo', 'D:\\', 'C:\\Users\\me'],
      remote: ['\\\\fs01\\team\\proj'],
    });
  });
  it('bad syntax or a deep nesting is a note, not a failure', () => {
    expect(hintText({ format: 'toml', keys_of: 'projects' }, '[projects."/a"\ntrust = ')).toEqual({ values: [], remote: [], problem: 'cannot be parsed as toml: no project roots read from it' });
    const deep = `x = ${'['.repeat(5000)}${']'.repeat(5000)}\n[projects."/a"]\n`;
    expect(hintText({ format: 'toml', keys_of: 'projects' }, deep).problem).toMatch(/cannot be parsed as toml/);
  });
});

describe('project hints: XML (JetBrains recentProjects.xml)', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE a [ <!ENTITY x "/srv/entity"> ]>
<application>
  <component name="RecentProjectsManager">
    <!-- <entry key="/srv/in-a-comment"> -->
    <option name="additionalInfo">
      <map>
        <entry key="$USER_HOME$/IdeaProjects/app">
          <value><RecentProjectMetaInfo projectWorkspaceId="2a" frameTitle="app &gt; main" /></value>
        </entry>
        <entry key="C:/work/R&amp;D" />
        <entry key="&x;/not-expanded" />
      </map>
    </option>
    <option name="recentPaths">
      <list>
        <option value="$USER_HOME$/old" />
      </list>
    </option>
    <option name="lastProjectLocation"><![CDATA[/srv/cdata]]></option>
  </component>
</application>`;
  it('reads entry keys and option values, with the home token and entities decoded, no DTD expanded', () => {
    const rule: HintRule = { format: 'xml', path: ['map/entry@key', 'option[@name=recentPaths]/list/option@value', "option[@name='lastProjectLocation']"], home_token: '$USER_HOME$' };
    expect(hintText(rule, xml, '/home/u')).toEqual({ values: ['/home/u/IdeaProjects/app', 'C:/work/R&D', '/home/u/old', '/srv/cdata'], remote: [] });
  });
  it('parses selectors and refuses malformed ones', () => {
    expect(parseXmlSelector('map/entry@key')).toEqual({ steps: [{ name: 'map', attrs: [] }, { name: 'entry', attrs: [] }], attr: 'key' });
    expect(parseXmlSelector('*[@a="b c"]')).toEqual({ steps: [{ name: '*', attrs: [{ name: 'a', value: 'b c' }] }] });
    for (const bad of ['', 'a//b', 'a[@x]', '@key', 'a b']) expect(parseXmlSelector(bad), bad).toBeUndefined();
  });
  it('keeps what it found before a cut, and stops at a hostile depth', () => {
    const cut = xmlValues('<map><entry key="/srv/a"/><entry key="/srv/b', parseXmlSelector('entry@key')!, 10);
    expect(cut).toEqual({ values: ['/srv/a'], problem: 'a start tag never ends' });
    expect(hintText({ format: 'xml', path: ['entry@key'] }, '<map><entry key="/srv/a"/><!-- never closed').problem).toMatch(/not well-formed XML \(an XML comment never ends\)/);
    const deep = `${'<a>'.repeat(XML_MAX_DEPTH + 5)}<entry key="/srv/deep"/>`;
    expect(xmlValues(`<entry key="/srv/top"/>${deep}`, parseXmlSelector('entry@key')!, 10)).toEqual({ values: ['/srv/top'], problem: `elements nested deeper than ${XML_MAX_DEPTH} levels: the rest was not read` });
    // Linear on a large flat file.
    const many = `<map>${Array.from({ length: 50_000 }, (_, i) => `<entry key="/srv/p${i % 50}"/>`).join('')}</map>`;
    expect(hintText({ format: 'xml', path: ['entry@key'] }, many).values.length).toBe(50);
  });
});

describe('project hints: text lines with a regex', () => {
  const rule: HintRule = { format: 'text', regex: 'Current Working Directory \\(([^)]+)\\) Files', max_lines: 'all' };
  it('captures every match of each line (Cline environment details)', async () => {
    expect(literalPrefix(rule.regex!)).toBe('Current Working Directory (');
    expect(literalPrefix('cwd=?(x)')).toBe('cwd');
    const text = '# Current Working Directory (/home/u/proj) Files\nx Current Working Directory (C:\\Users\\me\\p) Files and Current Working Directory (/srv/2) Files\nno match here';
    expect((await readHintValues(rule, file('env.md', text))).values).toEqual(['/home/u/proj', 'C:\\Users\\me\\p', '/srv/2']);
    expect(textMatcher('cwd=(?<path>\\S+)')('a cwd=/srv/n b', { attempts: 10 })).toEqual(['/srv/n']);
  });
  it('a hostile line full of the marker costs bounded work', () => {
    const line = 'Current Working Directory ('.repeat(200_000);
    const budget = { attempts: 1000 };
    expect(textMatcher(rule.regex!)(line, budget)).toEqual([]);
    expect(budget.attempts).toBe(0);
  });
});

describe('project hints: bounds', () => {
  it('keeps the first distinct values up to the bound and says how many more there were', () => {
    const lines = Array.from({ length: HINT_MAX_VALUES + 7 }, (_, i) => JSON.stringify({ project: `/srv/p${i}` }));
    const r = hintText({ format: 'jsonl', path: ['project'], max_lines: 'all' }, lines.join('\n'));
    expect(r.values.length).toBe(HINT_MAX_VALUES);
    expect(r.problem).toBe(`7 more distinct values past the first ${HINT_MAX_VALUES} were not kept as project roots`);
  });
  it('stops streaming at a byte bound and says so', async () => {
    const p = file('bytes.jsonl', `${'{"project":"/srv/a"}\n'.repeat(100)}`);
    const got: string[] = [];
    const r = await forEachLine(p, Number.POSITIVE_INFINITY, HINT_MAX_LINE_BYTES, (l) => got.push(l), 50);
    expect(r).toEqual({ lines: 2, overlong: 0, cut: true });
    expect(got).toEqual(['{"project":"/srv/a"}', '{"project":"/srv/a"}']);
  });
  it('with needles, passes exactly the lines holding one, also across 256 KB chunks, and counts every line', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? `{"type":"session.start","cwd":"/srv/p${i}","pad":"${'x'.repeat(i % 400)}"}` : `{"type":"tool","cwd":"/srv/q${i}","pad":"${'y'.repeat(i % 700)}"}`));
    const p = file('needles.jsonl', lines.join('\n'));
    const got: string[] = [];
    const r = await forEachLine(p, Number.POSITIVE_INFINITY, HINT_MAX_LINE_BYTES, (l) => got.push(l), undefined, [Buffer.from('session.start')]);
    expect(r).toEqual({ lines: 3000, overlong: 0 });
    const want = lines.filter((l) => l.includes('session.start'));
    // A line cut by a chunk boundary is passed whole and undecided; the caller's own test drops it.
    expect(got.filter((l) => l.includes('session.start'))).toEqual(want);
    expect(got.length - want.length).toBeLessThanOrEqual(Math.ceil(Buffer.byteLength(lines.join('\n')) / (256 * 1024)));
    const rule: HintRule = { format: 'jsonl', path: ['cwd'], where: [{ path: 'type', values: ['session.start'] }], max_lines: 'all' };
    expect((await readHintValues(rule, p)).values).toEqual(want.map((l) => (JSON.parse(l) as { cwd: string }).cwd));
  });
  it('with needles sharing a beginning, passes every line holding one of them and skips the near misses', async () => {
    const kinds = ['session.start', 'session.resume', 'session.info', 'session.', 'tool'];
    // Some lines hold the shared beginning twice: a near miss first, a needle after it.
    const lines = Array.from({ length: 3000 }, (_, i) => `{"type":"${kinds[i % 5]}","note":"session.x${'z'.repeat(i % 600)}","cwd":"/srv/p${i}"${i % 7 === 0 ? ',"then":"session.resume"' : ''}}`);
    const p = file('prefix-needles.jsonl', lines.join('\n'));
    const needles = ['session.start', 'session.resume'].map((n) => Buffer.from(n));
    const got: string[] = [];
    const r = await forEachLine(p, Number.POSITIVE_INFINITY, HINT_MAX_LINE_BYTES, (l) => got.push(l), undefined, needles);
    expect(r).toEqual({ lines: 3000, overlong: 0 });
    const holds = (l: string) => l.includes('session.start') || l.includes('session.resume');
    expect(got.filter(holds)).toEqual(lines.filter(holds));
    // Only lines cut by a chunk boundary are passed without holding one.
    expect(got.length - lines.filter(holds).length).toBeLessThanOrEqual(Math.ceil(Buffer.byteLength(lines.join('\n')) / (256 * 1024)));
  });
  it('bad JSON, an unreadable file and binary garbage give notes or nothing, never a throw', async () => {
    expect(hintText({ format: 'json', path: ['cwd'] }, '{"cwd": "/srv/a",')).toEqual({ values: [], remote: [], problem: 'cannot be parsed as json: no project roots read from it' });
    expect(await readHintValues({ format: 'xml', path: ['a@b'] }, join(T, 'missing.xml'))).toEqual({ values: [], remote: [] });
    const garbage = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    for (const format of ['json', 'yaml', 'toml', 'xml', 'jsonl'] as const) {
      const r = await readHintValues({ format, path: [format === 'xml' ? 'a@b' : 'a'] }, file(`garbage.${format}`, garbage));
      expect(r.values, format).toEqual([]);
    }
  });
});
