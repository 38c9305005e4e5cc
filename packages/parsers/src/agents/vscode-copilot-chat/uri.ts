import { asString, isObject } from '../../sdk/decode.js';

/**
 * VS Code URIs as paths (spec, "Where the project path is recorded"): a `file:` URI becomes its
 * platform path (percent-decoded; `/c:/Users/x` becomes `c:\Users\x`); any other scheme stays the
 * decoded URI string (`vscode-remote://ssh-remote+host/home/alex/proj`), so a remote path is never
 * taken for a local one. Accepts a URI string or a serialized URI object ({scheme, authority, path,
 * fsPath, external}, what JSON.stringify of a VS Code URI writes).
 */
export function uriToPath(u: unknown): string {
  if (typeof u === 'string') return fromString(u);
  if (!isObject(u)) return '';
  const scheme = asString(u.scheme) ?? '';
  const path = asString(u.path) ?? '';
  const authority = asString(u.authority) ?? '';
  if (scheme === 'file' || (scheme === '' && path !== '')) return filePath(authority, path);
  const external = asString(u.external);
  if (external) return fromString(external);
  if (scheme === '') return '';
  return `${scheme}://${authority}${path}`;
}

function fromString(s: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)/.exec(s);
  if (!m) return s;
  const [, scheme, authority = '', rawPath] = m;
  const path = decode(rawPath);
  if (scheme.toLowerCase() === 'file') return filePath(decode(authority), path);
  return `${scheme}://${decode(authority)}${path}`;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function filePath(authority: string, path: string): string {
  // Windows drive paths: VS Code writes /c:/Users/x (drive letter lower-cased).
  const drive = /^\/([a-zA-Z]):(\/.*)?$/.exec(path);
  if (drive) return `${drive[1]}:${(drive[2] ?? '/').replace(/\//g, '\\')}`;
  if (authority) return `\\\\${authority}${path.replace(/\//g, '\\')}`;
  return path;
}

/** A file's short name as VS Code's "copy response" prints it: the basename, or the whole http(s) URL. */
export function uriRepr(u: unknown): string {
  const s = typeof u === 'string' ? u : isObject(u) ? (asString(u.external) ?? '') : '';
  if (/^https?:/i.test(s)) return s;
  const p = uriToPath(u);
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return cut >= 0 ? p.slice(cut + 1) : p;
}
