import http from 'node:http'
import zlib from 'node:zlib'
import { expect, test } from 'vitest'
import { baseURL } from './browser.ts'

/** The raw (still compressed) body of a GET, as a browser receives it. */
function rawGet(path: string): Promise<{ encoding?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseURL()}${path}`,
      { headers: { 'accept-encoding': 'gzip' } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
        )
      },
    )
    request.on('error', reject)
  })
}

// Pages used to reach the compressor in dozens of flushed pieces, each compressed on its own: about
// twice the bytes (and several times the CPU) of one gzip stream, growing with every product card.
test('pages are compressed as one gzip stream, not piece by piece', async () => {
  for (const path of ['/', '/buscar?q=a', '/categoria/Categoria_MUCHOS/Muchos%20E2E']) {
    const { encoding, body } = await rawGet(path)
    expect(encoding, path).toBe('gzip')
    const html = zlib.gunzipSync(body)
    expect(html.toString('utf8'), path).toContain('</html>')
    const oneStream = zlib.gzipSync(html).length
    expect(body.length, path).toBeLessThan(oneStream * 1.25)
  }
})
