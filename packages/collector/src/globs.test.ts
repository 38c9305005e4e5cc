import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { expandAnchor } from './editors.js';
import { compileDirFilter, compileExcludedDirs, compileGlobs, globDepth, globPrefix, globProblem, walkRoots } from './globs.js';

describe('glob matching', () => {
  it('matches dot paths, ** across directories and * within one', () => {
    const m = compileGlobs(['.copilot/**', '.github/instructions/*.instructions.md'], false);
    expect(m('.copilot/session-state/a/events.jsonl')).toBe(true);
    expect(m('.github/instructions/x.instructions.md')).toBe(true);
    expect(m('.github/instructions/sub/x.instructions.md')).toBe(false);
    expect(m('Documents/x')).toBe(false);
  });
  it('ignores case only when asked (Windows and macOS homes)', () => {
    expect(compileGlobs(['AppData/Local/copilot/**'], true)('appdata/local/Copilot/x.json')).toBe(true);
    expect(compileGlobs(['AppData/Local/copilot/**'], false)('appdata/local/Copilot/x.json')).toBe(false);
    expect(compileExcludedDirs(['AppData/Local/copilot/pkg/**'], true)('AppData/Local/Copilot/PKG')).toBe(true);
    expect(compileExcludedDirs(['.copilot/pkg/**'], false)('.copilot/PKG')).toBe(false);
  });
  it('walks only the fixed prefixes of the globs', () => {
    expect(globPrefix('.copilot/**')).toBe('.copilot');
    expect(globPrefix('.github/instructions/*.instructions.md')).toBe('.github/instructions');
    expect(globPrefix('.claude-*/**')).toBe('');
    expect(walkRoots(['.copilot/**', '.copilot/config.json', '.config/gh/hosts.yml', 'AGENTS.md'])).toEqual([
      { prefix: '.config/gh/hosts.yml', depth: 0 },
      { prefix: '.copilot', depth: Number.POSITIVE_INFINITY },
      { prefix: 'AGENTS.md', depth: 0 },
    ]);
  });
  it('gives the roots a scan of every root for each prefix gives (property)', () => {
    // The plain rule: each prefix in sorted order joins the first root it lies below, or is a root.
    const reference = (globs: string[]) => {
      const byPrefix = new Map<string, number>();
      for (const g of globs) byPrefix.set(globPrefix(g), Math.max(byPrefix.get(globPrefix(g)) ?? 0, globDepth(g)));
      const out: { prefix: string; depth: number }[] = [];
      for (const p of [...byPrefix.keys()].sort()) {
        const parent = out.find((o) => o.prefix === '' || p.startsWith(`${o.prefix}/`));
        if (parent) parent.depth = Math.max(parent.depth, p.split('/').length - (parent.prefix === '' ? 0 : parent.prefix.split('/').length) + byPrefix.get(p)!);
        else out.push({ prefix: p, depth: byPrefix.get(p)! });
      }
      return out;
    };
    const seg = fc.constantFrom('a', 'b', 'a b', 'a.b', '.x', '', '*', '**', '*.md', 'C:', '{a,b}');
    const glob = fc.array(seg, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(fc.array(glob, { maxLength: 40 }), (globs) => {
        expect(walkRoots(globs)).toEqual(reference(globs));
      }),
      { numRuns: 2000 },
    );
  });
  it('prunes directories no glob can reach', () => {
    const d = compileDirFilter(['.claude-*/**', '.github/instructions/*.md', '/etc/github-copilot/**'], false);
    expect(d('.claude-work')).toBe(true);
    expect(d('.claude-work/deep/er')).toBe(true);
    expect(d('node_modules')).toBe(false);
    expect(d('.github')).toBe(true);
    expect(d('.github/instructions')).toBe(true);
    expect(d('.github/instructions/sub')).toBe(false);
    expect(d('/etc/github-copilot/policy.d')).toBe(true);
  });
  it('finds bad globs', () => {
    expect(globProblem('.copilot/[x', false)).toBeTruthy();
    expect(globProblem('/etc/x', false)).toMatch(/relative/);
    expect(globProblem('etc/x', true)).toMatch(/absolute/);
    expect(globProblem('a//b', false)).toMatch(/segment/);
    expect(globProblem('.copilot/**', false)).toBeUndefined();
  });

  it('the prefix index of many globs answers exactly as picomatch over all of them', () => {
    const globs = [
      ...expandAnchor('@vscode-family/User/globalStorage/saoudrizwan.claude-dev/**'),
      ...expandAnchor('@vscode-family/User/workspaceStorage/*/workspace.json'),
      ...expandAnchor('@cursor/User/globalStorage/state.vscdb*'),
      '.copilot/**',
      '**/CLAUDE.md',
      '.claude-*/**',
      '/etc/github-copilot/policy.d/**',
      'C:/Program Files (x86)/Demo/*.json',
    ];
    const paths = [
      '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json',
      '.config/code/User/globalStorage/saoudrizwan.claude-dev/x',
      'appdata/roaming/cursor/user/globalstorage/state.vscdb-wal',
      'Library/Application Support/Code - Insiders/User/workspaceStorage/abc/workspace.json',
      'Library/Application Support/Code - Insiders/User/workspaceStorage/abc/d/workspace.json',
      '.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev',
      '.copilot',
      '.copilot/a/b',
      'x/y/CLAUDE.md',
      'CLAUDE.md',
      '.claude-work/projects/a.jsonl',
      '/etc/github-copilot/policy.d/a.json',
      'C:/Program Files (x86)/Demo/a.json',
      'c:/program files (x86)/demo/a.json',
      'Documents/x',
      '',
    ];
    for (const nocase of [false, true]) {
      const indexed = compileGlobs(globs, nocase);
      const plain = picomatch(globs, { dot: true, nocase });
      for (const p of paths) expect(indexed(p), `${p} nocase=${nocase}`).toBe(plain(p));
    }
    expect(compileGlobs(globs, true)('appdata/roaming/cursor/user/globalstorage/state.vscdb-wal')).toBe(true);
    expect(compileGlobs(globs, false)('appdata/roaming/cursor/user/globalstorage/state.vscdb-wal')).toBe(false);
  });

  it('answers as picomatch over all the globs for any path, however deep (property)', () => {
    // The matcher tests only ancestors as deep as its deepest prefix: a path 2,000 folders deep
    // cost a collect 14 s of CPU when every ancestor was sliced and folded for every folder walked.
    const seg = fc.constantFrom('a', 'b', 'A', '.x', 'c.md', '*', '**', '*.md', '{a,b}', 'C:');
    const glob = fc.array(seg, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
    const name = fc.constantFrom('a', 'b', 'A', '.x', 'c.md', 'd', 'C:');
    const path = fc.array(name, { minLength: 1, maxLength: 12 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 20 }), fc.array(path, { maxLength: 20 }), fc.boolean(), (globs, paths, nocase) => {
        const indexed = compileGlobs(globs, nocase);
        const plain = picomatch(globs, { dot: true, nocase });
        for (const p of paths) expect(indexed(p), p).toBe(plain(p));
      }),
      { numRuns: 300 },
    );
    const deep = `${Array.from({ length: 2000 }, () => 'd').join('/')}/x.jsonl`;
    expect(compileGlobs(['.claude/projects/**/*.jsonl', 'd/d/*.jsonl'], false)(deep)).toBe(false);
    expect(compileGlobs(['d/**/*.jsonl'], false)(deep)).toBe(true);
  });

  it('judges a glob as picomatch does on the whole of it, though the leading plain segments are skipped', () => {
    const whole = (g: string) => {
      try {
        picomatch.makeRe(g, { strictBrackets: true, dot: true });
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    };
    const seg = fc.stringMatching(/^[a-z.()[\]{},!+@*?|"$^ -]{1,6}$/);
    const glob = fc.tuple(fc.array(fc.stringMatching(/^[A-Za-z0-9 ._-]{1,8}$/), { maxLength: 3 }), fc.array(seg, { minLength: 1, maxLength: 3 }));
    fc.assert(
      fc.property(glob, ([plain, rest]) => {
        const g = [...plain, ...rest].join('/');
        if (g !== g.trim() || g.startsWith('!') || g.split('/').some((s) => s === '.' || s === '..')) return;
        expect(globProblem(g, false)).toBe(whole(g));
      }),
      { numRuns: 3000 },
    );
    for (const g of expandAnchor('@vscode-family/User/[x/*.json')) expect(globProblem(g, false)).toBe(whole(g));
    expect(globProblem('a/b/{c,d/e}/x', false)).toBeUndefined();
    expect(globProblem('a/b/{c,d/e/x', false)).toBe(whole('a/b/{c,d/e/x'));
  });
});
