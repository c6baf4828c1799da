import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent, buildConnector, fetch } from 'undici'
import { MAX_VIDEO_BYTES, MB } from './validators.ts'

export type RemoteFile = { ok: true; bytes: Buffer } | { ok: false; reason: string }

/** Brings a file from another server (the original shop's storage) so it can be stored here. */
export interface RemoteFiles {
  download(url: string): Promise<RemoteFile>
  /** Closes the connections kept open (optional: a stand-in may keep none). */
  close?(): Promise<void>
}

export type ResolvedAddress = { address: string; family: number }

/** How a host name becomes the addresses to connect to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export type RemoteFilesOptions = {
  /** The whole download, connection to last byte, redirects included. */
  timeoutMs?: number
  /** Larger files are refused without reading them whole (the video upload limit by default). */
  maxBytes?: number
  /** The system's resolver by default; tests give fake public names their stand-in's address. */
  resolve?: Resolver
  /**
   * Tests only (a test can reach nothing but this machine): loopback addresses where its
   * stand-ins play public servers. Anything but a loopback address here is refused at once, so
   * this can never open the shop's network or a cloud's metadata service.
   */
  standInAddresses?: string[]
}

/** The one reason an internal address gets, before any connection: nothing about what answers there. */
export const INTERNAL_ADDRESS_REASON =
  'la dirección es interna (de esta máquina o de su red) y no se descarga'
/** Said for any failure to reach a public server (name not found, refused, reset, bad certificate). */
export const UNREACHABLE_REASON = 'no se pudo conectar con el servidor'
export const MAX_REDIRECTS = 5

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3')

/**
 * Whether an address belongs to the public internet: IPv4 outside every special range (loopback,
 * private, CGNAT, link-local and cloud metadata, unspecified, multicast, broadcast, reserved and
 * documentation ranges), IPv6 global unicast only. IPv4-mapped IPv6 is judged as the IPv4 it
 * carries; IPv4-compatible, NAT64, 6to4 and Teredo forms, which also carry an IPv4 inside, are
 * refused outright.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const ip = ipaddr.process(address)
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast'
  // ipaddr.js calls every IPv6 outside its named ranges "unicast", the deprecated ::a.b.c.d too.
  return ip.range() === 'unicast' && ip.match(GLOBAL_UNICAST_V6)
}

/** The address without `user:password@`, so it can be shown or kept without its credentials. */
export function addressWithoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password) return url
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    // Not an address the parser takes: cut anything up to an @ in the part before the path.
    return url.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, '$1')
  }
}

/** A refusal decided before connecting, carried through undici's connection error to the caller. */
class InternalAddress extends Error {
  override name = 'InternalAddress'
}

function internalOnTheWay(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof InternalAddress) return true
  }
  return false
}

/** The bare host of an address: IPv6 literals lose their brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true })

/** Hands `net.connect` the addresses already checked, so it never asks DNS again. */
function checkedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const fitting = options.family ? addresses.filter((a) => a.family === options.family) : addresses
    if (!fitting.length) {
      callback(Object.assign(new Error('no address of that family'), { code: 'ENOTFOUND' }), '', 0)
    } else if (options.all) callback(null, fitting)
    else callback(null, fitting[0]!.address, fitting[0]!.family)
  }
}

/**
 * Downloads over HTTP(S) with a time limit and a size bound; never throws: a file that cannot be
 * had comes back with the reason, in Spanish, for the caller's report. It refuses to reach this
 * machine or its networks (see `isPublicAddress`), whatever the address looks like: a host name is
 * resolved once when a connection opens, every address checked, and the connection made to those
 * addresses (a second lookup could be answered differently: DNS rebinding). An IP typed in the
 * address skips DNS altogether, so it is checked as it is. Redirects are followed here, at most
 * `MAX_REDIRECTS`, each to http or https only and checked the same way.
 */
export function remoteFiles({
  timeoutMs = 15_000,
  maxBytes = MAX_VIDEO_BYTES,
  resolve = systemResolver,
  standInAddresses = [],
}: RemoteFilesOptions = {}): RemoteFiles {
  for (const address of standInAddresses) {
    if (!ipaddr.isValid(address) || ipaddr.process(address).range() !== 'loopback') {
      throw new Error(`Only loopback stand-ins can be allowed, not ${address}`)
    }
  }
  const standIns = new Set(standInAddresses.map((address) => ipaddr.process(address).toString()))
  const allowed = (address: string) =>
    isPublicAddress(address) || (ipaddr.isValid(address) && standIns.has(ipaddr.process(address).toString()))

  const connectTimeout = Math.min(timeoutMs, 10_000)
  const dispatcher = new Agent({
    connect(options, callback) {
      const host = options.hostname
      const checked: Promise<ResolvedAddress[]> = isIP(host)
        ? Promise.resolve([{ address: host, family: isIP(host) }])
        : resolve(host)
      checked
        .then((addresses) => {
          if (!addresses.length) throw new Error(`${host} has no address`)
          if (!addresses.every((a) => allowed(a.address))) throw new InternalAddress(host)
          buildConnector({ timeout: connectTimeout, lookup: checkedLookup(addresses) })(options, callback)
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null))
    },
  })

  const tooLarge = `pesa más de ${maxBytes >= MB ? `${Math.floor(maxBytes / MB)} MB` : `${Math.ceil(maxBytes / 1024)} KB`}`
  const seconds = String(Math.round(timeoutMs / 100) / 10).replace('.', ',')
  const isWeb = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:'
  /** What an address is refused for before any connection, if anything. */
  const refusedBeforeConnecting = (url: URL) => {
    const host = bareHost(url)
    // The URL parser already turned 2130706433 or 0x7f.1 into 127.0.0.1; net.connect would not ask DNS.
    return isIP(host) && !allowed(host) ? INTERNAL_ADDRESS_REASON : null
  }

  return {
    async download(url) {
      let current: URL
      try {
        current = new URL(url)
      } catch {
        return { ok: false, reason: 'la dirección no es válida' }
      }
      if (!isWeb(current)) return { ok: false, reason: 'la dirección no es http ni https' }
      // fetch refuses an address with credentials: they travel as Basic authentication instead,
      // to that origin only.
      let authorization: { origin: string; header: string } | null = null
      if (current.username || current.password) {
        let user: string
        try {
          // A stray % (http://a%zz:x@host) is kept by the URL parser but is no escape.
          user = `${decodeURIComponent(current.username)}:${decodeURIComponent(current.password)}`
        } catch {
          return { ok: false, reason: 'la dirección no es válida' }
        }
        authorization = {
          origin: current.origin,
          header: `Basic ${Buffer.from(user, 'utf8').toString('base64')}`,
        }
        current.username = ''
        current.password = ''
      }
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), timeoutMs)
      try {
        for (let redirects = 0; ; redirects++) {
          const refusal = refusedBeforeConnecting(current)
          if (refusal) return { ok: false, reason: refusal }
          const headers: Record<string, string> =
            authorization?.origin === current.origin ? { authorization: authorization.header } : {}
          const response = await fetch(current, {
            dispatcher,
            signal: controller.signal,
            redirect: 'manual',
            headers,
          })
          if (REDIRECT_STATUSES.has(response.status)) {
            await response.body?.cancel().catch(() => {})
            const location = response.headers.get('location')
            let next: URL | null = null
            try {
              next = location ? new URL(location, current) : null
            } catch {
              // Told below, with a missing Location.
            }
            if (!next)
              return {
                ok: false,
                reason: `el servidor respondió HTTP ${response.status} sin una dirección válida`,
              }
            if (!isWeb(next)) return { ok: false, reason: 'redirige a una dirección que no es http ni https' }
            if (redirects === MAX_REDIRECTS)
              return { ok: false, reason: `redirige más de ${MAX_REDIRECTS} veces` }
            if (next.username || next.password) {
              return { ok: false, reason: 'redirige a una dirección con usuario y contraseña' }
            }
            current = next
            continue
          }
          if (!response.ok) {
            await response.body?.cancel().catch(() => {})
            return { ok: false, reason: `el servidor respondió HTTP ${response.status}` }
          }
          const declared = Number(response.headers.get('content-length'))
          if (Number.isFinite(declared) && declared > maxBytes) {
            await response.body?.cancel().catch(() => {})
            return { ok: false, reason: tooLarge }
          }
          const chunks: Buffer[] = []
          let size = 0
          const reader = response.body?.getReader()
          for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
            size += chunk.value.byteLength
            // A server may send more than it declared, or declare nothing: count what arrives.
            if (size > maxBytes) {
              controller.abort()
              return { ok: false, reason: tooLarge }
            }
            chunks.push(Buffer.from(chunk.value))
          }
          if (size === 0) return { ok: false, reason: 'el archivo está vacío' }
          return { ok: true, bytes: Buffer.concat(chunks) }
        }
      } catch (error) {
        if (internalOnTheWay(error)) return { ok: false, reason: INTERNAL_ADDRESS_REASON }
        if (controller.signal.aborted) return { ok: false, reason: `no respondió en ${seconds} s` }
        // No error code or message: to a public server they say little the owner can act on.
        return { ok: false, reason: UNREACHABLE_REASON }
      } finally {
        clearTimeout(timer)
      }
    },
    close: () => dispatcher.close(),
  }
}
