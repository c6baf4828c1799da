import { promisify } from 'node:util'
import zlib from 'node:zlib'

const deflateRaw = promisify(zlib.deflateRaw)

/**
 * A kept page compressed once, around its Content-Security-Policy nonce: every hit puts its own
 * gzip together from the kept pieces and its own nonce, instead of inflating the page, replacing
 * the nonce and compressing it again (0.6–0.9 ms of the thread pool per hit of a product or the
 * home page on this machine, for every one of hundreds of hits a second).
 *
 * The page is cut at each occurrence of the nonce; each piece is raw DEFLATE ended by a sync flush
 * (byte-aligned, not final), compressed with the 32 KB before it as its dictionary, so it still
 * refers back to earlier pieces as one stream would (within a few tenths of a percent of one gzip).
 * In that dictionary the nonce's bytes are NULs: a page holds no NUL, so no back-reference ever
 * points into the nonce, and any nonce of the same length can stand there. A request's nonce goes
 * in as a stored block; the trailer's CRC-32 is combined from the pieces' and the nonce's.
 */
export type NonceGzip = { pieces: Buffer[]; crcs: number[]; lengths: number[]; nonceLength: number }

const WINDOW = 32 * 1024
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])
/** An empty final block (fixed Huffman, end of block at once): what closes the stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00])

/**
 * The page's pieces around `nonce`, or null when it cannot be kept so (no nonce, or a NUL in it).
 * Compressed in the thread pool, once per kept answer.
 */
export async function splitAroundNonce(body: Buffer, nonce: string): Promise<NonceGzip | null> {
  const nonceBytes = Buffer.from(nonce)
  if (!nonceBytes.length || nonceBytes.length > 0xffff || body.includes(0)) return null
  const raw: Buffer[] = []
  let start = 0
  for (let at = body.indexOf(nonceBytes); at !== -1; at = body.indexOf(nonceBytes, start)) {
    raw.push(body.subarray(start, at))
    start = at + nonceBytes.length
  }
  raw.push(body.subarray(start))
  const placeholder = Buffer.alloc(nonceBytes.length)
  let window = Buffer.alloc(0)
  const pieces: Buffer[] = []
  for (const segment of raw) {
    const dictionary = window.subarray(Math.max(0, window.length - WINDOW))
    pieces.push(
      await deflateRaw(segment, {
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        ...(dictionary.length ? { dictionary } : {}),
      }),
    )
    window = Buffer.concat([dictionary, segment, placeholder])
  }
  return {
    pieces,
    crcs: raw.map((segment) => zlib.crc32(segment)),
    lengths: raw.map((segment) => segment.length),
    nonceLength: nonceBytes.length,
  }
}

/** The page's gzip with `nonce` in every place its rendering nonce was; null for a nonce of another length. */
export function gzipWithNonce(kept: NonceGzip, nonce: string): Buffer | null {
  const nonceBytes = Buffer.from(nonce)
  if (nonceBytes.length !== kept.nonceLength) return null
  const stored = Buffer.alloc(5 + nonceBytes.length)
  // A stored, non-final block: after a sync flush the stream is at a byte boundary.
  stored.writeUInt16LE(nonceBytes.length, 1)
  stored.writeUInt16LE(~nonceBytes.length & 0xffff, 3)
  nonceBytes.copy(stored, 5)
  const nonceCrc = zlib.crc32(nonceBytes)
  const parts: Buffer[] = [GZIP_HEADER]
  let crc = 0
  let size = 0
  kept.pieces.forEach((piece, index) => {
    if (index > 0) {
      parts.push(stored)
      crc = crc32Combine(crc, nonceCrc, nonceBytes.length)
      size += nonceBytes.length
    }
    parts.push(piece)
    crc = index === 0 ? kept.crcs[0]! : crc32Combine(crc, kept.crcs[index]!, kept.lengths[index]!)
    size += kept.lengths[index]!
  })
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(size >>> 0, 4)
  parts.push(FINAL_BLOCK, trailer)
  return Buffer.concat(parts)
}

// CRC-32 of two pieces joined, from each piece's CRC and the second's length (zlib's crc32_combine,
// by powers of x modulo the CRC polynomial): Node's zlib does not expose it.
const POLY = 0xedb88320

function multModP(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  for (;;) {
    if (a & m) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** x^(2^k) modulo the polynomial, for k = 0…31. */
const X2N: number[] = []
for (let k = 0, p = 0x40000000; k < 32; k++) {
  X2N.push(p >>> 0)
  p = multModP(p, p)
}

/** x^(n·2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000
  while (n) {
    if (n & 1) p = multModP(X2N[k & 31]!, p)
    n >>>= 1
    k++
  }
  return p >>> 0
}

export function crc32Combine(crc1: number, crc2: number, length2: number): number {
  return (multModP(x2nModP(length2, 3), crc1) ^ crc2) >>> 0
}
