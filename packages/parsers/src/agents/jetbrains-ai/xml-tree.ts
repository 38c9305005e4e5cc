/**
 * A small XML reader for IntelliJ's state files (elements, double- or single-quoted attributes,
 * the five entities and numeric character references, comments, the prolog, CDATA): enough for
 * the IDE's own writer, which keeps text in attribute values. It never throws: damage ends the
 * tree where it is and says so in `error`.
 */

/** An element: its name, attributes and child elements. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Attribute text with its entities and character references decoded (an unknown one kept as written). */
export function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] !== '#') return ENTITY[e] ?? m;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/** How many open elements a closing tag may close at once (a missing closing tag in the IDE's writer is rare). */
const MAX_UNWIND = 64;

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The element tree of `text` (a synthetic root holds the top elements), and where it stopped if it is damaged. */
export function parseXml(text: string): { root: XmlNode; error?: string } {
  const root: XmlNode = { name: '#document', attrs: {}, children: [] };
  const stack: XmlNode[] = [root];
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return { root, error: `a comment at offset ${lt} is not closed` };
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt);
      if (end < 0) return { root, error: `a CDATA section at offset ${lt} is not closed` };
      i = end + 3;
    } else if (text[lt + 1] === '?' || text[lt + 1] === '!') {
      const end = text.indexOf('>', lt);
      if (end < 0) return { root, error: `a declaration at offset ${lt} is not closed` };
      i = end + 1;
    } else if (text[lt + 1] === '/') {
      const end = text.indexOf('>', lt);
      if (end < 0) return { root, error: `a closing tag at offset ${lt} is not closed` };
      const name = text.slice(lt + 2, end).trim();
      // Close up to the matching element among the innermost few; a stray closing tag is ignored
      // (a bounded look, so a file of stray tags at depth stays linear).
      for (let k = stack.length - 1; k > 0 && k >= stack.length - MAX_UNWIND; k--) {
        if (stack[k].name === name) {
          stack.length = k;
          break;
        }
      }
      i = end + 1;
    } else {
      // The tag ends at the first '>' outside quotes.
      let j = lt + 1;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (j >= text.length) return { root, error: `a tag at offset ${lt} is not closed (the file is cut short?)` };
      const body = text.slice(lt + 1, j);
      const self = body.endsWith('/');
      const m = /^[^\s/>]+/.exec(body);
      const node: XmlNode = { name: m?.[0] ?? '', attrs: {}, children: [] };
      for (const a of (self ? body.slice(0, -1) : body).slice(node.name.length).matchAll(ATTR)) node.attrs[a[1]] = unescapeXml(a[2] ?? a[3] ?? '');
      stack[stack.length - 1].children.push(node);
      if (!self) stack.push(node);
      i = j + 1;
    }
  }
  return stack.length > 1 ? { root, error: `the file ends inside <${stack[stack.length - 1].name}> (cut short?)` } : { root };
}
