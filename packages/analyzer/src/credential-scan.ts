import { TextDecoder } from 'node:util';
import { bomOf } from '@aitrail/parsers';

/**
 * Bytes of a chunk scanned as one string. A 256 KiB chunk's text was a string past V8's 128 KiB
 * regular object size: a large object, mapped, faulted in and unmapped on its own, one per chunk
 * of every scanned member (a seventh of a 160 MiB analysis's page faults).
 */
const SCAN_PIECE = 64 * 1024;

/**
 * Credential scanner for collected files that are NOT secret files: a token pasted into a
 * prompt, echoed by a tool into events.jsonl, or printed in a process log. Secret files (the
 * catalog's secret globs, e.g. mcp-config.json) are flagged by the collector and must not be
 * given to this scanner: their contents never reach a row, a finding or a log.
 *
 * A finding carries the line, the kind and a preview of four characters followed by an
 * ellipsis; the value itself is never returned, so findings can be written to inventory.json.
 * One value repeated on a line is one finding.
 */

/** Kinds of credential the scanner knows. */
export type CredentialKind =
  | 'github_token' // ghp_ personal access token (classic)
  | 'github_oauth_token' // gho_
  | 'github_user_token' // ghu_ user-to-server
  | 'github_server_token' // ghs_ server-to-server
  | 'github_refresh_token' // ghr_
  | 'github_fine_grained_pat' // github_pat_
  | 'anthropic_api_key'
  | 'openai_api_key'
  | 'aws_access_key_id'
  | 'slack_token'
  | 'google_api_key'
  | 'private_key'
  | 'bearer_token';

/** One credential found: where, what kind, and a 4-character preview (never the value). */
export interface CredentialFinding {
  /** 1-based line number. */
  line: number;
  kind: CredentialKind;
  /** First 4 characters of the value followed by `…`. */
  preview: string;
}

/** Options for {@link scanCredentials}. */
export interface CredentialScanOptions {
  /** Stop collecting after this many findings (the rest are counted, not kept). Default 10,000. */
  maxFindings?: number;
}

/** What {@link scanCredentials} returns. */
export interface CredentialScanResult {
  findings: CredentialFinding[];
  /** Findings seen in all, including those past `maxFindings`. */
  total: number;
  truncated: boolean;
}

/** A line as a line reader yields it. */
export interface ScanLine {
  line: number;
  text: string;
}

// Every pattern starts with a literal, so a regex can find candidates at full speed; a
// lookbehind in front of the literal would make V8 try every position (20 MB/s instead of
// hundreds). The left boundary is checked in code instead (see `leftOk`).
// Right boundary for fixed-length tokens: a longer run is some other identifier.
const R = '(?![A-Za-z0-9_])';

/** Left boundaries: `token` = start, a character that cannot be part of a token, or a JSON escape; `word` = \b. */
type Boundary = 'token' | 'word' | 'none';

interface Pattern {
  kind: CredentialKind | ((m: RegExpExecArray) => CredentialKind);
  re: RegExp;
  left: Boundary;
  /** Capture group holding the value (0 = the whole match). */
  group: number;
  /** Lower wins when two matches overlap: specific shapes before generic ones. */
  rank: number;
}

const GH_KINDS: Record<string, CredentialKind> = {
  p: 'github_token',
  o: 'github_oauth_token',
  u: 'github_user_token',
  s: 'github_server_token',
  r: 'github_refresh_token',
};

const PATTERNS: Pattern[] = [
  { kind: (m) => GH_KINDS[m[0][2]], re: new RegExp(`gh[pousr]_[A-Za-z0-9]{36}${R}`, 'g'), left: 'token', group: 0, rank: 0 },
  { kind: 'github_fine_grained_pat', re: new RegExp(`github_pat_[A-Za-z0-9_]{82}${R}`, 'g'), left: 'token', group: 0, rank: 0 },
  { kind: 'anthropic_api_key', re: /sk-ant-[A-Za-z0-9_-]{20,}/g, left: 'token', group: 0, rank: 0 },
  { kind: 'openai_api_key', re: /sk-(?!ant-)[A-Za-z0-9_-]{20,}/g, left: 'token', group: 0, rank: 1 },
  { kind: 'aws_access_key_id', re: new RegExp(`(?:AKIA|ASIA)[0-9A-Z]{16}${R}`, 'g'), left: 'token', group: 0, rank: 0 },
  { kind: 'slack_token', re: /xox[abposr]-[A-Za-z0-9-]{10,}/g, left: 'token', group: 0, rank: 0 },
  { kind: 'google_api_key', re: /AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, left: 'token', group: 0, rank: 0 },
  { kind: 'private_key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g, left: 'none', group: 0, rank: 0 },
  // Generic: a long opaque token after "Bearer"; the value is the token, not the word.
  { kind: 'bearer_token', re: /[Bb]earer[ \t]+([A-Za-z0-9._~+/=-]{20,})/g, left: 'word', group: 1, rank: 2 },
];

// Any line without one of these literals holds no credential: one pass rejects most lines.
const QUICK = /gh[pousr]_|github_pat_|sk-|AKIA|ASIA|xox[abposr]-|AIza|-----BEGIN|[Bb]earer/;

const isTokenChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
// `\n`, `\r`, `\t`, `\b`, `\f`: tokens pasted into prompts sit in JSON strings right after an escaped newline.
const ESCAPES = new Set([110, 114, 116, 98, 102]);

function leftOk(text: string, at: number, b: Boundary): boolean {
  if (b === 'none' || at === 0) return true;
  const c = text.charCodeAt(at - 1);
  if (b === 'word') return !isWordChar(c);
  return !isTokenChar(c) || (at >= 2 && text.charCodeAt(at - 2) === 92 && ESCAPES.has(c));
}

interface Hit {
  start: number;
  end: number;
  kind: CredentialKind;
  value4: string;
  rank: number;
}

function hits(text: string): Hit[] {
  if (!QUICK.test(text)) return [];
  const out: Hit[] = [];
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(text); m; m = p.re.exec(text)) {
      if (!leftOk(text, m.index, p.left)) {
        // As a lookbehind would: try again one character on.
        p.re.lastIndex = m.index + 1;
        continue;
      }
      const value = m[p.group];
      const start = m.index + (p.group === 0 ? 0 : m[0].length - value.length);
      out.push({ start, end: start + value.length, kind: typeof p.kind === 'function' ? p.kind(m) : p.kind, value4: value.slice(0, 4), rank: p.rank });
    }
  }
  // One finding per stretch of text: where a Bearer header carries a ghp_ token, say ghp_.
  out.sort((a, b) => a.start - b.start || a.rank - b.rank);
  // Kept hits never overlap and are sorted, so only the last one can clash with the next.
  const kept: Hit[] = [];
  for (const h of out) {
    const last = kept[kept.length - 1];
    if (!last || h.start >= last.end) kept.push(h);
    else if (h.rank < last.rank) kept[kept.length - 1] = h;
  }
  if (kept.length < 2) return kept;
  // A value repeated on one line (a prompt's content and transformedContent) is one finding:
  // the finding points at the line, and a second copy adds nothing. The values stay here.
  const seen = new Set<string>();
  return kept.filter((h) => {
    const key = `${h.kind}\0${text.slice(h.start, h.end)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Credentials in one line of text, in order of appearance, each distinct value once. */
export function findCredentials(text: string, line: number): CredentialFinding[] {
  return hits(text).map((h) => ({ line, kind: h.kind, preview: `${h.value4}…` }));
}

/** The text with every credential the patterns know replaced by `[REDACTED]`, and the kinds found (never the values). */
export function redactCredentials(text: string): { text: string; kinds: CredentialKind[]; previews: string[] } {
  const found = hits(text);
  if (found.length === 0) return { text, kinds: [], previews: [] };
  // Every occurrence goes, not only the first of a repeated value.
  let out = text;
  const values = new Set(found.map((h) => text.slice(h.start, h.end)));
  for (const v of values) out = out.split(v).join('[REDACTED]');
  return { text: out, kinds: found.map((h) => h.kind), previews: found.map((h) => `${h.value4}…`) };
}

// A line longer than this is scanned in windows so memory stays bounded whatever its length;
// OVERLAP covers any fixed-length token and the boundary context around a cut.
const WINDOW = 1 << 20;
const OVERLAP = 4096;

/**
 * The byte-stream scanner, pushed to: each chunk of a file in order, then {@link end}. It splits
 * lines itself, in bounded windows (a 64 MB line costs about 1 MB of memory), so the integrity
 * pass can feed it the very chunks it hashes and a parser reads.
 */
export class CredentialScanner {
  private lineNo = 1;
  private pending = '';
  // Characters at the start of `pending` that an earlier window already reported on.
  private seen = 0;

  // A file saved as UTF-16 (its byte order mark says so) has a NUL beside every ASCII letter, so
  // no pattern matched it: its bytes are decoded as text instead. Decided on the first chunk.
  private utf16: TextDecoder | null | undefined;
  private head = Buffer.alloc(0);

  /** Scan the next chunk; returns the findings it completes, in order. */
  push(chunk: Buffer | Uint8Array | string): CredentialFinding[] {
    if (typeof chunk !== 'string' && chunk.length > SCAN_PIECE) {
      const all: CredentialFinding[] = [];
      for (let i = 0; i < chunk.length; i += SCAN_PIECE) all.push(...this.push(chunk.subarray(i, i + SCAN_PIECE)));
      return all;
    }
    const out: CredentialFinding[] = [];
    if (this.utf16 === undefined && typeof chunk !== 'string') {
      const b = Buffer.concat([this.head, chunk]);
      // A mark is two bytes: a one-byte first chunk waits for the next.
      if (b.length < 2) {
        this.head = b;
        return out;
      }
      this.head = Buffer.alloc(0);
      const bom = bomOf(b);
      this.utf16 = bom && bom.encoding !== 'utf-8' ? new TextDecoder(bom.encoding) : null;
      chunk = b;
    }
    // latin1: one character per byte, so a multi-byte character cut between chunks is harmless;
    // every pattern is ASCII.
    const s = typeof chunk === 'string' ? chunk : this.utf16 ? this.utf16.decode(chunk, { stream: true }) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    let at = 0;
    const line = (nl: number) => {
      this.append(s.slice(at, nl), out);
      this.flush(true, out);
      this.lineNo += 1;
      at = nl + 1;
    };
    const first = s.indexOf('\n');
    if (first >= 0) line(first);
    // The whole lines after it: one test for a literal over all of them, and line by line only
    // when one holds a literal (most chunks hold none).
    const last = s.lastIndexOf('\n');
    if (last > first) {
      if (QUICK.test(s.slice(at, last))) {
        for (let nl = s.indexOf('\n', at); nl >= 0 && nl <= last; nl = s.indexOf('\n', at)) line(nl);
      } else {
        for (let nl = s.indexOf('\n', at); nl >= 0 && nl <= last; nl = s.indexOf('\n', nl + 1)) this.lineNo += 1;
        at = last + 1;
      }
    }
    this.append(s.slice(at), out);
    return out;
  }

  /** The findings of the last line. */
  end(): CredentialFinding[] {
    const out: CredentialFinding[] = [];
    if (this.head.length > 0) {
      const h = this.head;
      this.head = Buffer.alloc(0);
      this.utf16 = null;
      out.push(...this.push(h));
    }
    if (this.pending.length > 0) this.flush(true, out);
    return out;
  }

  private flush(final: boolean, out: CredentialFinding[]): void {
    const cut = final ? this.pending.length : this.pending.length - OVERLAP;
    for (const h of hits(this.pending)) {
      if (h.start >= this.seen && h.start < cut) out.push({ line: this.lineNo, kind: h.kind, preview: `${h.value4}…` });
    }
    if (final) {
      this.pending = '';
      this.seen = 0;
    } else {
      const keep = Math.max(0, cut - 64);
      this.pending = this.pending.slice(keep);
      this.seen = cut - keep;
    }
  }

  // Append in slices so no single scan ever covers more than WINDOW + OVERLAP characters.
  private append(piece: string, out: CredentialFinding[]): void {
    for (let i = 0; i < piece.length; i += WINDOW / 2) {
      this.pending += piece.slice(i, i + WINDOW / 2);
      if (this.pending.length > WINDOW) this.flush(false, out);
    }
  }
}

/**
 * Scan a stream of lines (`{line, text}`, as the SDK's line readers yield them) or raw bytes
 * (a file stream, through {@link CredentialScanner}), yielding findings as they are met.
 */
export async function* scanCredentialStream(source: AsyncIterable<ScanLine | Buffer | Uint8Array | string>): AsyncGenerator<CredentialFinding> {
  const bytes = new CredentialScanner();
  for await (const item of source) {
    if (typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string') {
      for (const f of findCredentials(item.text, item.line)) yield f;
      continue;
    }
    yield* bytes.push(item as Buffer | Uint8Array | string);
  }
  yield* bytes.end();
}

/** Scan a whole source and collect its findings, keeping at most `maxFindings`. */
export async function scanCredentials(source: AsyncIterable<ScanLine | Buffer | Uint8Array | string>, opts: CredentialScanOptions = {}): Promise<CredentialScanResult> {
  const max = opts.maxFindings ?? 10_000;
  const findings: CredentialFinding[] = [];
  let total = 0;
  for await (const f of scanCredentialStream(source)) {
    total += 1;
    if (findings.length < max) findings.push(f);
  }
  return { findings, total, truncated: total > findings.length };
}

/** Whether a manifest row's file may be scanned: collected, and not a secret file. */
export function credentialScanEligible(row: { status: string; secret: boolean }): boolean {
  return row.status === 'collected' && !row.secret;
}
