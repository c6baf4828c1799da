import http from 'node:http'
import zlib from 'node:zlib'
import { expect, test } from 'vitest'
import { baseURL } from './browser.ts'

/** The raw (still compressed) body of a GET, as a browser receives it. */
function rawGet(
  path: string,
  acceptEncoding = 'gzip',
): Promise<{ encoding?: string; vary?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseURL()}${path}`,
      { headers: { 'accept-encoding': acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            encoding: response.headers['content-encoding'],
            vary: response.headers.vary,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    request.on('error', reject)
  })
}

// Pages used to reach the compressor in dozens of flushed pieces, each compressed on its own: about
// twice the bytes (and several times the CPU) of one gzip stream, growing with every product card.
test('pages are compressed as one gzip stream, not piece by piece', async () => {
  // The category's canonical address (its slug), which answers the page itself, not a redirect.
  for (const path of ['/', '/buscar?q=a', '/categoria/Categoria_MUCHOS/muchos-e2e']) {
    const { encoding, body } = await rawGet(path)
    expect(encoding, path).toBe('gzip')
    const html = zlib.gunzipSync(body)
    expect(html.toString('utf8'), path).toContain('</html>')
    const oneStream = zlib.gzipSync(html).length
    expect(body.length, path).toBeLessThan(oneStream * 1.25)
  }
})

// Hashed scripts are compressed once at build time at the highest levels (vite.config.ts), and
// served as the browser accepts: Brotli, else gzip, else as they are.
test('scripts are served from their Brotli or gzip copy made at build time', async () => {
  const html = (await rawGet('/', 'identity')).body.toString('utf8')
  const script = html.match(/"(\/assets\/entry\.client-[^"]+\.js)"/)?.[1]
  expect(script).toBeDefined()
  const plain = await rawGet(script!, 'identity')
  expect(plain.encoding).toBeUndefined()
  const brotli = await rawGet(script!, 'gzip, deflate, br, zstd')
  expect(brotli.encoding).toBe('br')
  expect(brotli.vary).toMatch(/accept-encoding/i)
  expect(zlib.brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true)
  // Quality 11, not the 4 a live response uses.
  const atQuality4 = zlib.brotliCompressSync(plain.body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
  }).length
  expect(brotli.body.length).toBeLessThan(atQuality4)
  const gzip = await rawGet(script!, 'gzip')
  expect(gzip.encoding).toBe('gzip')
  expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true)
})
