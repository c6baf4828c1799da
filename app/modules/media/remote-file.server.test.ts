import { lookup } from 'node:dns/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { listen, refusedUrl, type RecordedRequest } from '#tests/stand-ins/http.ts'
import {
  addressWithoutCredentials,
  INTERNAL_ADDRESS_REASON,
  isPublicAddress,
  remoteFiles,
  UNREACHABLE_REASON,
  type Resolver,
} from './remote-file.server.ts'

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
  // The stand-in on 127.0.0.1 plays the original shop's storage here.
  const files = remoteFiles({ timeoutMs: 300, maxBytes: 4_000, standInAddresses: ['127.0.0.1'] })

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
    // A public server that cannot be reached: one reason, no error code.
    expect(await files.download(`${await refusedUrl()}/foto.png`)).toEqual({
      ok: false,
      reason: UNREACHABLE_REASON,
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

/**
 * The guard. A "public" stand-in listens on 127.0.0.2 (the only address these tests let through)
 * and answers with redirects; "internal" servers listen on 127.0.0.1 and [::1], where a shop's
 * admin panels or a database would be. Whatever address form reaches them, they must see nothing.
 */
describe('internal addresses are refused before any connection', () => {
  const internalRequests: RecordedRequest[] = []
  const publicRequests: { path: string; authorization: string | undefined }[] = []
  let internal: { origin: string; port: number; close: () => Promise<void> }
  let internalV6: Server
  let v6Port: number
  let publicServer: Server
  let publicPort: number
  let publicOrigin: string
  /** Fake public names: the stand-in's, and one whose DNS answers with this machine. */
  const PUBLIC_NAME = 'fotos.tienda-original.test'
  const INTERNAL_NAME = 'interno.tienda-original.test'
  const MIXED_NAME = 'mixto.tienda-original.test'
  const resolver: Resolver = async (hostname) => {
    if (hostname === PUBLIC_NAME) return [{ address: '127.0.0.2', family: 4 }]
    if (hostname === INTERNAL_NAME) return [{ address: '127.0.0.1', family: 4 }]
    if (hostname === MIXED_NAME) {
      return [
        { address: '127.0.0.2', family: 4 },
        { address: '::1', family: 6 },
      ]
    }
    // No DNS here beyond the hosts file: the fake names end there.
    if (hostname === 'localhost') return lookup(hostname, { all: true })
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  }
  const files = () => remoteFiles({ timeoutMs: 2_000, resolve: resolver, standInAddresses: ['127.0.0.2'] })

  beforeAll(async () => {
    const stand = await listen(internalRequests, (_request, response) =>
      response.writeHead(200, { 'Content-Length': 7 }).end('secreto'),
    )
    internal = { ...stand, port: Number(new URL(stand.origin).port) }
    internalV6 = createServer((request, response) => {
      internalRequests.push({ path: request.url ?? '' } as RecordedRequest)
      response.end('secreto')
    })
    await new Promise<void>((resolve) => internalV6.listen(0, '::1', resolve))
    v6Port = (internalV6.address() as AddressInfo).port
    publicServer = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x')
      publicRequests.push({ path: url.pathname, authorization: request.headers.authorization })
      const to = url.searchParams.get('a')
      if (url.pathname === '/redirige' && to) response.writeHead(302, { Location: to }).end()
      else if (url.pathname === '/cadena') {
        const left = Number(url.searchParams.get('n'))
        response.writeHead(301, { Location: left > 0 ? `/cadena?n=${left - 1}` : '/foto.png' }).end()
      } else if (url.pathname === '/privada.png') {
        const expected = `Basic ${Buffer.from('ana:clave secreta').toString('base64')}`
        if (request.headers.authorization === expected) response.end(BODY)
        else response.writeHead(401).end()
      } else if (url.pathname === '/foto.png') response.end(BODY)
      else response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve))
    publicPort = (publicServer.address() as AddressInfo).port
    publicOrigin = `http://${PUBLIC_NAME}:${publicPort}`
  })
  afterAll(async () => {
    await internal.close()
    for (const server of [internalV6, publicServer]) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  const refused = { ok: false, reason: INTERNAL_ADDRESS_REASON }

  test('the public stand-in answers, by its name or its address', async () => {
    expect(await files().download(`${publicOrigin}/foto.png`)).toEqual({ ok: true, bytes: BODY })
    expect(await files().download(`http://127.0.0.2:${publicPort}/foto.png`)).toEqual({
      ok: true,
      bytes: BODY,
    })
  })

  test('loopback in any spelling is refused, and nothing reaches the server there', async () => {
    const port = internal.port
    for (const url of [
      `http://127.0.0.1:${port}/secreto.png`,
      `http://2130706433:${port}/secreto.png`,
      `http://0x7f.1:${port}/secreto.png`,
      `http://0177.0.0.1:${port}/secreto.png`,
      `http://127.1:${port}/secreto.png`,
      `http://0.0.0.0:${port}/secreto.png`,
      `http://[::1]:${v6Port}/secreto.png`,
      `http://[::ffff:127.0.0.1]:${port}/secreto.png`,
      `http://[::ffff:7f00:1]:${port}/secreto.png`,
      `http://[::]:${v6Port}/secreto.png`,
      `https://127.0.0.1:${port}/secreto.png`,
    ]) {
      expect(await files().download(url), url).toEqual(refused)
    }
    expect(internalRequests).toEqual([])
  })

  test('a name that resolves to this machine is refused: localhost, or any name DNS points here', async () => {
    const port = internal.port
    // `localhost` through the system's resolver, the others through the test's.
    const system = remoteFiles({ timeoutMs: 2_000, standInAddresses: ['127.0.0.2'] })
    expect(await system.download(`http://localhost:${port}/secreto.png`)).toEqual(refused)
    expect(await files().download(`http://${INTERNAL_NAME}:${port}/secreto.png`)).toEqual(refused)
    // One internal address among public ones is enough to refuse the name.
    expect(await files().download(`http://${MIXED_NAME}:${v6Port}/secreto.png`)).toEqual(refused)
    expect(internalRequests).toEqual([])
  })

  test('a public server that redirects into this machine is refused at that hop, in any spelling', async () => {
    const port = internal.port
    for (const target of [
      `http://127.0.0.1:${port}/secreto.png`,
      `http://2130706433:${port}/secreto.png`,
      `http://[::1]:${v6Port}/secreto.png`,
      `http://[::ffff:127.0.0.1]:${port}/secreto.png`,
      `http://localhost:${port}/secreto.png`,
      `http://${INTERNAL_NAME}:${port}/secreto.png`,
      // Two public hops first.
      `/redirige?a=${encodeURIComponent(`/redirige?a=${encodeURIComponent(`http://127.0.0.1:${port}/x`)}`)}`,
    ]) {
      const url = `${publicOrigin}/redirige?a=${encodeURIComponent(target)}`
      expect(await files().download(url), target).toEqual(refused)
    }
    expect(internalRequests).toEqual([])
  })

  test('redirects go to http or https only, at most five', async () => {
    for (const target of ['file:///etc/passwd', 'ftp://ejemplo.com/foto.png', 'data:image/png;base64,AAAA']) {
      expect(await files().download(`${publicOrigin}/redirige?a=${encodeURIComponent(target)}`)).toEqual({
        ok: false,
        reason: 'redirige a una dirección que no es http ni https',
      })
    }
    expect(await files().download(`${publicOrigin}/cadena?n=4`)).toEqual({ ok: true, bytes: BODY })
    expect(await files().download(`${publicOrigin}/cadena?n=5`)).toEqual({
      ok: false,
      reason: 'redirige más de 5 veces',
    })
  })

  test('the address checked is the one connected to: DNS is asked once, never again by the socket', async () => {
    let asked = 0
    // A rebinding DNS: a public answer first, this machine afterwards.
    const rebinding: Resolver = async () =>
      asked++ === 0 ? [{ address: '127.0.0.2', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]
    const once = remoteFiles({ timeoutMs: 2_000, resolve: rebinding, standInAddresses: ['127.0.0.2'] })
    // The name exists in no real DNS: had the socket looked it up itself, it would have failed.
    expect(await once.download(`http://cambiante.test:${publicPort}/foto.png`)).toEqual({
      ok: true,
      bytes: BODY,
    })
    expect(asked).toBe(1)
  })

  test('a public server that cannot be reached, or a name that does not exist, gives one reason without codes', async () => {
    const closed = Number(new URL(await refusedUrl()).port)
    expect(await files().download(`http://127.0.0.2:${closed}/foto.png`)).toEqual({
      ok: false,
      reason: UNREACHABLE_REASON,
    })
    expect(await files().download(`http://no-existe.tienda-original.test:${publicPort}/foto.png`)).toEqual({
      ok: false,
      reason: UNREACHABLE_REASON,
    })
  })

  test('credentials in the address travel as Basic authentication, to that origin only', async () => {
    publicRequests.length = 0
    expect(await files().download(`http://ana:clave%20secreta@127.0.0.2:${publicPort}/privada.png`)).toEqual({
      ok: true,
      bytes: BODY,
    })
    // Redirected to another origin (the same server by another name): they are not sent there.
    const away = `http://ana:clave%20secreta@127.0.0.2:${publicPort}/redirige?a=${encodeURIComponent(`${publicOrigin}/privada.png`)}`
    expect(await files().download(away)).toEqual({ ok: false, reason: 'el servidor respondió HTTP 401' })
    expect(publicRequests.map((r) => [r.path, Boolean(r.authorization)])).toEqual([
      ['/privada.png', true],
      ['/redirige', true],
      ['/privada.png', false],
    ])
  })

  test('only loopback addresses can stand in for public servers', () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '8.8.8.8', 'localhost']) {
      expect(() => remoteFiles({ standInAddresses: [address] }), address).toThrow()
    }
  })
})

test('which addresses count as public', () => {
  const internal = [
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:192.168.0.1',
    '::ffff:100.64.0.1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2001::1',
    '2001:db8::1',
    'no es una ip',
  ]
  const publicOnes = [
    '8.8.8.8',
    '151.101.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2800:3f0:4005::200e',
    '::ffff:8.8.8.8',
  ]
  expect(internal.filter(isPublicAddress)).toEqual([])
  expect(publicOnes.filter((address) => !isPublicAddress(address))).toEqual([])
})

test('credentials are cut from an address before it is shown or kept', () => {
  expect(addressWithoutCredentials('https://ana:secreta@fotos.example.com/a.jpg?alt=media')).toBe(
    'https://fotos.example.com/a.jpg?alt=media',
  )
  expect(addressWithoutCredentials('https://solo-usuario@fotos.example.com/a.jpg')).toBe(
    'https://fotos.example.com/a.jpg',
  )
  expect(addressWithoutCredentials('https://fotos.example.com/a@b.jpg')).toBe(
    'https://fotos.example.com/a@b.jpg',
  )
  expect(addressWithoutCredentials('http://ana:se@creta@[::1/roto')).toBe('http://[::1/roto')
})

test('credentials that are no valid escape make the address invalid, without throwing', async () => {
  // The URL parser keeps a stray % in the user part; decoding it would throw a URIError.
  const files = remoteFiles({ resolve: () => Promise.reject(new Error('no debería conectarse')) })
  try {
    for (const url of [
      'http://a%zz:x@fotos.example.com/f.jpg',
      'http://ana:%E0%A4%A@fotos.example.com/f.jpg',
    ]) {
      expect(await files.download(url), url).toEqual({ ok: false, reason: 'la dirección no es válida' })
    }
  } finally {
    await files.close?.()
  }
})
