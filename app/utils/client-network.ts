import { isIPv4, isIPv6 } from 'node:net'

/**
 * The network a client address stands for in the hold limits and the rate limits: an IPv4 address
 * as it is (carrier NAT puts many phones behind one, which is why the address has its own, higher
 * hold limit), an IPv4 address mapped into IPv6 as that IPv4 address, and any other IPv6 address as
 * its /64, the block one subscriber's device rotates its addresses within. Anything else is kept as given (trimmed).
 */
export function clientNetworkOf(address: string): string {
  const text = address.trim().replace(/^\[|\]$/g, '')
  const plain = text.replace(/%.*$/, '')
  if (isIPv4(plain)) return plain
  if (!isIPv6(plain)) return text
  const groups = expandIPv6(plain.toLowerCase())
  const mapped = /^0:0:0:0:0:ffff:/.test(groups.join(':'))
  if (mapped) {
    const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)]
    return [high >> 8, high & 255, low >> 8, low & 255].join('.')
  }
  return `${groups.slice(0, 4).join(':')}::/64`
}

/** Eight hex groups without leading zeros, an embedded dotted IPv4 tail turned into two groups. */
function expandIPv6(address: string): string[] {
  let text = address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16))
}
