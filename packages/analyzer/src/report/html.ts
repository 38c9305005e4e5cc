import { createHash } from 'node:crypto';

/** Text as HTML text or attribute value: every character that could open markup is an entity. */
export function esc(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An HTML table of rows already escaped cell by cell. */
export function table(head: string[], rows: unknown[][], cls = ''): string {
  if (!rows.length) return '<p class="none">None.</p>';
  const th = head.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c instanceof Raw ? c.html : esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** HTML built by this module (escaped already), passed through {@link table} as is. */
export class Raw {
  constructor(readonly html: string) {}
}

/** A Content-Security-Policy that lets only this page's own inline script and styles run: no network, no injected script. */
export function csp(script: string): string {
  const hash = createHash('sha256').update(script).digest('base64');
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
}
