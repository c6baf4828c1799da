/**
 * What "this machine" means wherever the store checks it (the local sign-in provider, the payment
 * simulator, Secure cookies): 127.0.0.0/8, ::1 and the name localhost.
 */

/** A loopback IP as a socket or `req.ip` reports it, IPv4 mapped into IPv6 included. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address
  return ip === '::1' || /^127\.\d+\.\d+\.\d+$/.test(ip)
}

/** A host name as `URL.hostname` gives it (IPv6 in brackets) that always means this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || isLoopbackAddress(hostname)
}

export function isLoopbackUrl(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname)
}
