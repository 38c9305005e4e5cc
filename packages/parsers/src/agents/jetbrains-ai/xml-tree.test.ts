import { describe, expect, it } from 'vitest';
import { parseXml, unescapeXml } from './xml-tree.js';

describe('xml-tree', () => {
  it('decodes entities and character references; an unknown or impossible one stays as written', () => {
    expect(unescapeXml('a&#10;b&#x9;c &quot;d&quot; &lt;e&gt; &amp;amp; &apos;')).toBe('a\nb\tc "d" <e> &amp; \'');
    expect(unescapeXml('&nbsp; &#x110000; &#;')).toBe('&nbsp; &#x110000; &#;');
  });

  it('reads attributes in either quote, a ">" inside a value, comments, CDATA and declarations; a stray closing tag is ignored', () => {
    const { root, error } = parseXml(`<?xml version="1.0"?><!DOCTYPE x><!-- <a b="1"/> --><p x='1>2' y="it's"><![CDATA[<q/>]]></stray><c/></p>`);
    expect(error).toBeUndefined();
    expect(root.children).toEqual([{ name: 'p', attrs: { x: '1>2', y: "it's" }, children: [{ name: 'c', attrs: {}, children: [] }] }]);
  });

  it('a file nested 100,000 deep, or full of stray closing tags, is read in one pass', () => {
    const deep = parseXml(`${'<a>'.repeat(100_000)}<b v="x"/>${'</a>'.repeat(100_000)}`);
    expect(deep.error).toBeUndefined();
    const stray = parseXml(`${'<a>'.repeat(10_000)}${'</zz>'.repeat(100_000)}`);
    expect(stray.error).toBe('the file ends inside <a> (cut short?)');
  });

  it('says where damage ended the tree and keeps what came before', () => {
    expect(parseXml('<a><b v="1"/><c v="2').error).toBe('a tag at offset 13 is not closed (the file is cut short?)');
    expect(parseXml('<a><b v="1"/><!-- x').error).toBe('a comment at offset 13 is not closed');
    const r = parseXml('<a><b v="1"/>');
    expect([r.error, r.root.children[0].children[0].attrs]).toEqual(['the file ends inside <a> (cut short?)', { v: '1' }]);
  });
});
