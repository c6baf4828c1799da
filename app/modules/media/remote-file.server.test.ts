import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listen, refusedUrl, type RecordedRequest } from '#tests/stand-ins/http.ts'
import { remoteFiles } from './remote-file.server.ts'

const BODY = Buffer.alloc(2_000, 7)
let origin: string
let close: () => Promise<void>
const requests: RecordedRequest[] = []
const pending: (() => void)[] = []

beforeAll(async () => {
  const stand = await listen(requests, (request, response) => {
    if (request.path === '/foto.png') response.writeHead(200, { 'Content-Length': BODY.length }).end(BODY)
    else if (request.path === '/grande-declarado')
      response.writeHead(200, { 'Content-Length': 5_000 }).end(Buffer.alloc(5_000))
    else if (request.path === '/grande-sin-tamano') {
      // Chunked: no Content-Length, the bound must count what arrives.
      response.writeHead(200)
      response.write(Buffer.alloc(3_000))
      response.end(Buffer.alloc(3_000))
    } else if (request.path === '/lento') {
      response.writeHead(200)
      response.write(Buffer.alloc(10))
      pending.push(() => response.end())
    } else if (request.path === '/vacio') response.writeHead(200, { 'Content-Length': 0 }).end()
    else response.writeHead(404).end()
  })
  origin = stand.origin
  close = stand.close
})
afterAll(async () => {
  for (const finish of pending) finish()
  await close()
})

describe('remoteFiles', () => {
  const files = remoteFiles({ timeoutMs: 300, maxBytes: 4_000 })

  test('brings a file whole', async () => {
    const file = await files.download(`${origin}/foto.png`)
    expect(file).toEqual({ ok: true, bytes: BODY })
  })

  test('a file too large is refused by its declared size or by what arrives', async () => {
    expect(await files.download(`${origin}/grande-declarado`)).toEqual({
      ok: false,
      reason: 'pesa más de 4 KB',
    })
    expect(await files.download(`${origin}/grande-sin-tamano`)).toMatchObject({
      ok: false,
      reason: 'pesa más de 4 KB',
    })
  })

  test('a missing, empty, slow or unreachable file gives the reason instead of throwing', async () => {
    expect(await files.download(`${origin}/no-existe.png`)).toEqual({
      ok: false,
      reason: 'el servidor respondió HTTP 404',
    })
    expect(await files.download(`${origin}/vacio`)).toEqual({ ok: false, reason: 'el archivo está vacío' })
    expect(await files.download(`${origin}/lento`)).toEqual({ ok: false, reason: 'no respondió en 0,3 s' })
    expect(await files.download(`${await refusedUrl()}/foto.png`)).toMatchObject({
      ok: false,
      reason: 'no se pudo descargar (ECONNREFUSED)',
    })
    expect(await files.download('ftp://ejemplo.com/foto.png')).toEqual({
      ok: false,
      reason: 'la dirección no es http ni https',
    })
    expect(await files.download('no es una dirección')).toEqual({
      ok: false,
      reason: 'la dirección no es válida',
    })
  })
})
