import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadCatalogs } from '../catalog.js';
import { globParts, globRegex } from './glob-parts.js';
import { exportCatalogs } from './index.js';

// Each export checked against the fields its format documents as required:
// Velociraptor artifacts (docs.velociraptor.app "Artifacts": name, description, type, parameters
// with name/type/default, sources with query), KAPE targets (KapeFiles README: Description,
// Author, Version, Id, RecreateDirectories, Targets with Name, Category, Path), UAC artifacts
// (uac docs "Artifacts > file collector": version, artifacts with description, supported_os,
// collector, path).

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLE = path.join(REPO, 'fixtures/plugins/example-agent/catalog/example-agent.yaml');
const example = loadCatalogs({ files: [EXAMPLE] }).filter((c) => c.agent === 'example-agent');
const builtin = loadCatalogs();

describe('the Velociraptor artifact', () => {
  it('is the golden file for the example catalog', () => {
    const [f] = exportCatalogs('velociraptor', example, '0.0.0-test');
    expect(f.name).toBe('Custom.Aitrail.AgentArtifacts.yaml');
    expect(f.text).toBe(readFileSync(path.join(REPO, 'fixtures/golden/velociraptor-example-agent.yaml'), 'utf8'));
  });

  it('has the documented required fields for every built-in catalog, a rule per glob', () => {
    const doc = parse(exportCatalogs('velociraptor', builtin, '1')[0].text);
    expect(doc).toMatchObject({ name: expect.stringMatching(/^Custom\.[A-Za-z.]+$/), description: expect.any(String), type: 'CLIENT' });
    for (const p of doc.parameters) expect(p).toMatchObject({ name: expect.any(String), type: expect.stringMatching(/^(multichoice|choices|bool|csv|regex)$/) });
    expect(doc.sources.map((s: { name: string }) => s.name)).toEqual(['Windows', 'Linux', 'macOS']);
    for (const s of doc.sources) expect(s.query).toMatch(/upload\(file=OSPath\)/);
    const rules = doc.parameters.find((p: { name: string }) => p.name === 'RuleTable').default.trim().split('\n');
    const globs = builtin.reduce((n, c) => n + c.collect.length + c.secrets.length + c.system.length, 0);
    expect(rules.length).toBe(globs + 1);
    expect(JSON.parse(doc.parameters[0].default)).toEqual(builtin.map((c) => c.agent));
  });
});

describe('the KAPE targets', () => {
  const files = exportCatalogs('kape', builtin, '1');
  it('are one .tkape per agent and a compound one, with the documented fields', () => {
    expect(files.map((f) => f.name)).toEqual([...builtin.map((c) => `Targets/Aitrail/Aitrail_${c.agent}.tkape`), 'Targets/Aitrail/Aitrail_AllAgents.tkape']);
    const ids = new Set<string>();
    for (const f of files) {
      const doc = parse(f.text);
      expect(doc).toMatchObject({ Description: expect.any(String), Author: expect.any(String), Version: expect.any(Number), RecreateDirectories: true });
      expect(doc.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(doc.Id);
      expect(doc.Targets.length).toBeGreaterThan(0);
      for (const t of doc.Targets) expect(t).toMatchObject({ Name: expect.any(String), Category: 'AIAgents', Path: expect.any(String) });
    }
    expect(ids.size).toBe(files.length);
  });

  it('turns a glob into a folder, a mask and a recursion flag', () => {
    const [f] = exportCatalogs('kape', example, '1');
    const doc = parse(f.text);
    expect(doc.Targets).toEqual([
      { Name: 'example-agent: .example-agent/**', Category: 'AIAgents', Path: 'C:\\Users\\%user%\\.example-agent\\', FileMask: '*', Recursive: true, Comment: 'aitrail catalog collect glob' },
      { Name: 'example-agent: .example-agent/credentials.json', Category: 'AIAgents', Path: 'C:\\Users\\%user%\\.example-agent\\', FileMask: 'credentials.json', Recursive: false, Comment: expect.stringMatching(/^aitrail catalog secret glob/) },
    ]);
    expect(f.text).toMatch(/^# Excluded by aitrail .*\.example-agent\/cache\/\*\*/);
  });
});

describe('the UAC artifacts', () => {
  it('have the documented fields of a file collector artifact', () => {
    for (const f of exportCatalogs('uac', builtin, '1')) {
      const doc = parse(f.text);
      expect(f.text).not.toMatch(/[&*]a\d\b|^ +- [a-z]/m);
      expect(doc.version).toBe(1);
      for (const a of doc.artifacts) {
        expect(a).toMatchObject({ description: expect.any(String), collector: 'file', path: expect.stringMatching(/^\//) });
        expect(a.supported_os).toEqual(['all']);
      }
    }
  });

  it('put home globs under %user_home% with the exclusions', () => {
    const doc = parse(exportCatalogs('uac', example, '1')[0].text);
    expect(doc.artifacts[0]).toMatchObject({ path: '/%user_home%/.example-agent', exclude_path_pattern: ['/%user_home%/.example-agent/cache/*'], file_type: ['f'] });
    expect(doc.artifacts[1]).toMatchObject({ path: '/%user_home%/.example-agent/credentials.json' });
  });
});

describe('glob helpers', () => {
  it('split a glob at its first wildcard', () => {
    expect(globParts('.copilot/session-state/*/events.jsonl')).toEqual({ dir: '.copilot/session-state', rest: '*/events.jsonl', name: 'events.jsonl', deep: true });
    expect(globParts('.claude.json')).toEqual({ dir: '', rest: '.claude.json', name: '.claude.json', deep: false });
  });
  it('make an RE2-safe regex matching at a separator of either kind', () => {
    const re = new RegExp(globRegex('.example-agent/cache/**').replace('(?i)', ''), 'i');
    expect(re.test('C:\\Users\\a\\.example-agent\\cache\\x\\y')).toBe(true);
    expect(re.test('/home/a/.example-agent/cache/x')).toBe(true);
    expect(re.test('/home/a/.example-agent/config.json')).toBe(false);
    expect(globRegex('a/{b,c}/*.json')).not.toMatch(/\(\?[=!<]/);
  });
});
