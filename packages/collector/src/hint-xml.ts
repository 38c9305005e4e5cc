/**
 * XML project hints (JetBrains `options/recentProjects.xml`): a small linear scanner, no
 * entity expansion beyond the five predefined ones and character references (a DOCTYPE is
 * skipped, so no billion-laughs), and a selector of elements and one attribute.
 */

/** One element step of an XML selector: a name (or `*`) and `[@attr=value]` conditions. */
export interface XmlStep {
  name: string;
  attrs: { name: string; value: string }[];
}

/** A parsed XML selector: element steps (matched at any depth), then `@attr` or the text. */
export interface XmlSelector {
  steps: XmlStep[];
  /** The attribute to read; undefined reads the element's text. */
  attr?: string;
}

/** Elements nested deeper than this end the scan (a hostile file). */
export const XML_MAX_DEPTH = 1000;

const NAME = '[A-Za-z_][A-Za-z0-9_.:-]*';
const STEP_RE = new RegExp(`^(${NAME}|\\*)((?:\\[@${NAME}=(?:'[^']*'|"[^"]*"|[^\\]'"]*)\\])*)$`);
const PRED_RE = new RegExp(`\\[@(${NAME})=('([^']*)'|"([^"]*)"|([^\\]'"]*))\\]`, 'g');

/** Parse `map/entry@key` or `option[@name=recentPaths]/list/option@value`; undefined when malformed. */
export function parseXmlSelector(path: string): XmlSelector | undefined {
  const at = /@([A-Za-z_][A-Za-z0-9_.:-]*)$/.exec(path);
  // `@attr` at the very end (not inside a [@k=v] condition).
  const attr = at && !path.endsWith(']') && path[at.index - 1] !== '[' ? at[1] : undefined;
  const body = attr !== undefined ? path.slice(0, at!.index) : path;
  if (body === '') return undefined;
  const steps: XmlStep[] = [];
  for (const seg of body.split('/')) {
    const m = STEP_RE.exec(seg);
    if (!m) return undefined;
    const attrs = [...m[2].matchAll(PRED_RE)].map((p) => ({ name: p[1], value: p[3] ?? p[4] ?? p[5] ?? '' }));
    steps.push({ name: m[1], attrs });
  }
  return { steps, ...(attr !== undefined ? { attr } : {}) };
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decode the predefined entities and character references; anything else stays as written. */
export function decodeXmlText(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,4});/g, (all, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? all;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

function matches(stack: { name: string; attrs: Map<string, string> }[], steps: XmlStep[]): boolean {
  if (stack.length < steps.length) return false;
  const off = stack.length - steps.length;
  return steps.every((s, i) => {
    const el = stack[off + i];
    return (s.name === '*' || s.name === el.name) && s.attrs.every((a) => el.attrs.get(a.name) === a.value);
  });
}

/** The end of a start tag beginning at `from` (after `<`), quotes respected; -1 when it never ends. */
function tagEnd(text: string, from: number): number {
  let q = '';
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (q) {
      if (c === q) q = '';
    } else if (c === '"' || c === "'") q = c;
    else if (c === '>') return i;
  }
  return -1;
}

/**
 * The values a selector reaches in an XML text, at most `max`; `problem` when the text is cut
 * or too deep to read to its end (the values found before are kept).
 */
export function xmlValues(text: string, sel: XmlSelector, max: number): { values: string[]; problem?: string } {
  const values: string[] = [];
  const stack: { name: string; attrs: Map<string, string> }[] = [];
  // Elements whose text is being gathered: the stack depth they sit at, and the text so far.
  const open: { depth: number; text: string }[] = [];
  let i = 0;
  const addText = (t: string) => {
    for (const o of open) if (o.text.length < 65_536) o.text += t;
  };
  while (i < text.length && values.length < max) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (lt > i && open.length > 0) addText(decodeXmlText(text.slice(i, lt)));
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      if (e < 0) return { values, problem: 'an XML comment never ends' };
      i = e + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const e = text.indexOf(']]>', lt + 9);
      if (e < 0) return { values, problem: 'a CDATA section never ends' };
      if (open.length > 0) addText(text.slice(lt + 9, e));
      i = e + 3;
    } else if (text.startsWith('<?', lt)) {
      const e = text.indexOf('?>', lt + 2);
      if (e < 0) return { values, problem: 'a processing instruction never ends' };
      i = e + 2;
    } else if (text.startsWith('<!', lt)) {
      // A DOCTYPE's internal subset ([...]) may hold '>': it ends at ']>'. Nothing in it is expanded.
      const gt = text.indexOf('>', lt);
      const br = text.indexOf('[', lt);
      const e = br >= 0 && (gt < 0 || br < gt) ? text.indexOf(']>', br) + 1 : gt;
      if (e <= 0) return { values, problem: 'a declaration never ends' };
      i = e + 1;
    } else if (text[lt + 1] === '/') {
      const gt = text.indexOf('>', lt);
      if (gt < 0) return { values, problem: 'an end tag never ends' };
      const name = text.slice(lt + 2, gt).trim();
      // Tolerant: close up to the matching element, or ignore a stray end tag.
      const at = stack.map((s) => s.name).lastIndexOf(name);
      if (at >= 0) {
        while (stack.length > at) {
          const d = stack.length;
          const o = open.at(-1);
          if (o && o.depth === d) {
            open.pop();
            const v = o.text.trim();
            if (v) values.push(v);
          }
          stack.pop();
        }
      }
      i = gt + 1;
    } else {
      const gt = tagEnd(text, lt + 1);
      if (gt < 0) return { values, problem: 'a start tag never ends' };
      const raw = text.slice(lt + 1, gt);
      const selfClosing = raw.endsWith('/');
      const inner = selfClosing ? raw.slice(0, -1) : raw;
      const name = /^[^\s/>]+/.exec(inner)?.[0] ?? '';
      const attrs = new Map<string, string>();
      for (const m of inner.slice(name.length).matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(m[1], decodeXmlText(m[2] ?? m[3] ?? ''));
      stack.push({ name, attrs });
      if (stack.length > XML_MAX_DEPTH) return { values, problem: `elements nested deeper than ${XML_MAX_DEPTH} levels: the rest was not read` };
      if (matches(stack, sel.steps)) {
        if (sel.attr !== undefined) {
          const v = attrs.get(sel.attr);
          if (v !== undefined && v !== '') values.push(v);
        } else if (!selfClosing) open.push({ depth: stack.length, text: '' });
      }
      if (selfClosing) stack.pop();
      i = gt + 1;
    }
  }
  return { values: values.slice(0, max) };
}
