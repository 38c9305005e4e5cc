/**
 * zstd frames built by hand (RFC 8878), so the tests need no zstd compressor: raw blocks hold the
 * bytes as they are, RLE blocks repeat one byte (a bomb in a few bytes).
 */
const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const BLOCK = 128 * 1024;

function header(last: boolean, type: 0 | 1, size: number): Buffer {
  const v = (last ? 1 : 0) | (type << 1) | (size << 3);
  return Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff]);
}

/** One frame (no content size, no checksum, 128 KiB window) holding `data` in raw blocks. */
export function rawFrame(data: Buffer): Buffer {
  const parts: Buffer[] = [MAGIC, Buffer.from([0x00, 0x38])];
  for (let i = 0; i === 0 || i < data.length; i += BLOCK) {
    const piece = data.subarray(i, i + BLOCK);
    parts.push(header(i + BLOCK >= data.length, 0, piece.length), piece);
  }
  return Buffer.concat(parts);
}

/** One frame of `blocks` RLE blocks of 128 KiB of `byte`: 4 bytes a block, 128 KiB each decoded. */
export function rleFrame(byte: number, blocks: number): Buffer {
  const parts: Buffer[] = [MAGIC, Buffer.from([0x00, 0x38])];
  for (let i = 0; i < blocks; i++) parts.push(header(i === blocks - 1, 1, BLOCK), Buffer.from([byte]));
  return Buffer.concat(parts);
}
