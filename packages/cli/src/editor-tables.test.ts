// The editor table lives twice: as data in the collector (catalog/families/editors.yaml, which
// the catalogs' anchors expand from) and in the parsers' SDK (sdk/editors.ts, for editorOf on a
// path alone), because @aitrail/parsers imports no other package of ours. This package imports
// both, so it checks here that they say the same.
import { anchorDirs, anchorIds, expandAnchor, loadEditorFamilies } from '@aitrail/collector';
import { EDITOR_FAMILIES, editorDataDirs, editorOf } from '@aitrail/parsers';
import { describe, expect, it } from 'vitest';

describe('the two editor tables agree', () => {
  it('same families, places and editors, field by field', () => {
    expect(JSON.parse(JSON.stringify(EDITOR_FAMILIES))).toEqual(loadEditorFamilies());
  });

  it('every anchor expands to the same data folders on both sides', () => {
    for (const id of anchorIds()) {
      expect(editorDataDirs(id)?.map((d) => [d.editor, d.place, d.dir]), id).toEqual(anchorDirs(id)?.map((d) => [d.editor, d.place, d.dir]));
    }
  });

  it('editorOf names the editor of every path an anchor collects', () => {
    for (const f of loadEditorFamilies()) {
      for (const e of f.editors) {
        for (const glob of expandAnchor(`@${e.id}/User/globalStorage/state.vscdb`)) {
          expect(editorOf(glob), glob).toMatchObject({ id: e.id, family: f.id, rest: 'globalStorage/state.vscdb' });
        }
      }
    }
  });
});
