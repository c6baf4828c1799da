import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { expect, test } from 'vitest'
import { crc32Combine, gzipWithNonce, splitAroundNonce } from './nonce-gzip.server.ts'

const nonce = () => randomBytes(16).toString('base64')

test('CRC-32 of two pieces joined, from their own CRCs', () => {
  for (const [a, b] of [
    ['', ''],
    ['a', ''],
    ['', 'b'],
    ['hola ', 'mundo'],
    [randomBytes(70_000).toString('hex'), randomBytes(5_003).toString('latin1')],
  ] as const) {
    const left = Buffer.from(a)
    const right = Buffer.from(b)
    expect(crc32Combine(zlib.crc32(left), zlib.crc32(right), right.length)).toBe(
      zlib.crc32(Buffer.concat([left, right])),
    )
  }
})

test("a kept page's gzip carries each request's nonce, byte for byte as the page would be", async () => {
  const rendered = nonce()
  const cards = Array.from(
    { length: 400 },
    (_, i) => `<li class="card">Collar ${i % 17} ${'★'.repeat(i % 5)}</li>`,
  )
  const html =
    `<!doctype html><html><head><link rel="modulepreload" nonce="${rendered}" href="/a.js">` +
    `<script nonce="${rendered}">window.x=1</script></head><body>${cards.join('')}` +
    `<script nonce="${rendered}" type="module">import "/a.js"</script></body></html>${rendered}`
  const kept = (await splitAroundNonce(Buffer.from(html), rendered))!
  expect(kept.pieces).toHaveLength(5)
  for (const current of [nonce(), nonce(), rendered]) {
    const gzipped = gzipWithNonce(kept, current)!
    expect(zlib.gunzipSync(gzipped).toString()).toBe(html.replaceAll(rendered, current))
  }
  // Compressed around the nonce, it stays as small as one gzip of the page, but for each cut's
  // flush marker and stored nonce.
  const whole = zlib.gzipSync(Buffer.from(html)).length
  expect(gzipWithNonce(kept, nonce())!.length).toBeLessThan(whole * 1.02 + 40 * kept.pieces.length)
})

test('what cannot be kept so is said: no nonce, a NUL in the page, a nonce of another length', async () => {
  expect(await splitAroundNonce(Buffer.from('<p>a\u0000b</p>'), 'abc')).toBeNull()
  expect(await splitAroundNonce(Buffer.from('<p>x</p>'), '')).toBeNull()
  const kept = (await splitAroundNonce(Buffer.from('<p nonce="abcd">x</p>'), 'abcd'))!
  expect(gzipWithNonce(kept, 'abcde')).toBeNull()
  expect(zlib.gunzipSync(gzipWithNonce(kept, 'wxyz')!).toString()).toBe('<p nonce="wxyz">x</p>')
})
