/** One field of a protobuf message: its number and its value (bytes for length-delimited fields). */
export interface ProtoField {
  field: number;
  wire: number;
  bytes?: Buffer;
  int?: number;
}

function varint(b: Buffer, at: number): { value: number; next: number } | undefined {
  let value = 0;
  let mul = 1;
  for (let i = at; i < b.length && i < at + 10; i++) {
    value += (b[i] & 0x7f) * mul;
    mul *= 128;
    if (b[i] < 0x80) return { value, next: i + 1 };
  }
  return undefined;
}

/**
 * The top-level fields of a protobuf message, or undefined when the bytes are not one (a bad wire
 * type, a length past the end). No schema: the caller picks the fields it knows. Bounded by the
 * buffer; never throws.
 */
export function protoFields(b: Buffer): ProtoField[] | undefined {
  const out: ProtoField[] = [];
  let i = 0;
  while (i < b.length) {
    const key = varint(b, i);
    if (!key || key.value === 0) return undefined;
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    i = key.next;
    if (wire === 0) {
      const v = varint(b, i);
      if (!v) return undefined;
      out.push({ field, wire, int: v.value });
      i = v.next;
    } else if (wire === 2) {
      const len = varint(b, i);
      if (!len || len.next + len.value > b.length) return undefined;
      out.push({ field, wire, bytes: b.subarray(len.next, len.next + len.value) });
      i = len.next + len.value;
    } else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      if (i + n > b.length) return undefined;
      out.push({ field, wire, bytes: b.subarray(i, i + n) });
      i += n;
    } else return undefined;
  }
  return out;
}

/** What a cursor-agent root blob says: the message blob ids in order and the workspace path. */
export interface RootBlob {
  messageIds: string[];
  workspace: string;
}

/**
 * A cursor-agent root blob: field 1 repeated, each a 32-byte SHA-256 id of a message blob, in
 * conversation order; field 9 the workspace path (peers; absent in the 2025.10.21 store seen).
 * Undefined when the bytes are not such a message.
 */
export function readRootBlob(b: Buffer): RootBlob | undefined {
  const fields = protoFields(b);
  if (!fields) return undefined;
  const ids = fields.filter((f) => f.field === 1 && f.bytes?.length === 32).map((f) => f.bytes!.toString('hex'));
  if (ids.length === 0) return undefined;
  const ws = fields.find((f) => f.field === 9 && f.bytes)?.bytes;
  const path = ws ? ws.toString('utf8') : '';
  return { messageIds: ids, workspace: /^(?:\/|[A-Za-z]:[\\/])[^\0]*$/.test(path) ? path : '' };
}
