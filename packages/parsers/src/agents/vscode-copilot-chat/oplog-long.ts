import { isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { badLineRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { slimRequest } from './slim.js';
import { jsonText } from '../../sdk/compact-json.js';
import { utf8Stream } from '../../sdk/text-encoding.js';

/**
 * Lines of a session log too long to hold as text beside the session they describe. After a
 * compaction, or when a session restored from its flat file is first written again, the log is one
 * Initial line holding every request (VS Code wrote lines past V8's 512 MiB string limit before its
 * oversize fallback existed, microsoft/vscode#308843). Such a line is streamed request by request
 * (the SDK's readJsonArray over that line's bytes), each request slimmed as it comes; any other long
 * line is read whole from a second pass over the file.
 */

/** A line longer than this is not held as text by the line reader. */
export const LONG_LINE_BYTES = 16 * 1024 * 1024;

const NL = 0x0a;

/** Whether a long line's preview is an Initial entry (VS Code writes `kind` first). */
export function isLongInitial(preview: string): boolean {
  return /^\uFEFF?\s*\{\s*"kind"\s*:\s*0\s*,/.test(preview);
}

/** The bytes of line `n` (1-based, without its newline), from a fresh read of the file, as UTF-8 (as the line reader saw it). */
export async function* lineBytes(open: () => AsyncIterable<Buffer | Uint8Array>, n: number): AsyncGenerator<Buffer> {
  let line = 1;
  for await (const chunk of utf8Stream(open())) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let from = 0;
    while (from <= b.length) {
      const nl = b.indexOf(NL, from);
      const end = nl === -1 ? b.length : nl;
      if (line === n && end > from) yield b.subarray(from, end);
      if (nl === -1) break;
      if (line === n) return;
      line++;
      from = nl + 1;
    }
  }
}

/** Line `n` parsed whole (a long Set or Push entry), or why it could not be. */
export async function readLongLine(open: () => AsyncIterable<Buffer | Uint8Array>, n: number): Promise<{ value: JsonObject } | { error: string }> {
  const parts: Buffer[] = [];
  for await (const b of lineBytes(open, n)) parts.push(Buffer.from(b));
  try {
    const v = JSON.parse(Buffer.concat(parts).toString('utf8').replace(/\r$/, ''));
    return isObject(v) ? { value: v } : { error: 'not a JSON object' };
  } catch (e) {
    return { error: `invalid JSON (${(e as Error).message.slice(0, 80)})` };
  }
}

/**
 * Stream an Initial line: its session fields, then its requests one by one (slimmed). Fills
 * `out.v` when the line was an Initial entry with a session object; yields a bad-line row for a
 * request that does not parse and for a line cut before its end.
 */
export async function* streamInitial(open: () => AsyncIterable<Buffer | Uint8Array>, n: number, out: { v?: JsonObject }, fields: Partial<Row>): AsyncGenerator<Row> {
  const v: JsonObject = {};
  const requests: unknown[] = [];
  let kind: unknown;
  for await (const ev of readJsonArray(lineBytes(open, n), ['v', 'requests'])) {
    if (ev.kind === 'field') {
      if (ev.path.length === 1 && ev.path[0] === 'kind') kind = ev.value;
      else if (ev.path.length === 2 && ev.path[0] === 'v') Object.defineProperty(v, ev.path[1], { value: ev.value, enumerable: true, writable: true, configurable: true });
    } else if (ev.kind === 'item') requests.push(slimRequest(ev.value));
    else if (ev.kind === 'bad') yield badLineRow(`request ${ev.index} of the Initial entry: ${ev.reason}`, ev.preview, n, fields);
    else if (!ev.complete) yield badLineRow(`the Initial entry is cut after ${ev.items} complete request(s): ${ev.reason ?? 'incomplete'}`, '', n, fields);
  }
  if (kind !== 0) {
    yield badLineRow(`expected a long line to be an Initial entry, found kind ${jsonText(kind)}`, '', n, fields);
    return;
  }
  Object.defineProperty(v, 'requests', { value: requests, enumerable: true, writable: true, configurable: true });
  out.v = v;
}
