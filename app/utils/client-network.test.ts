import { expect, test } from 'vitest'
import { clientNetworkOf } from './client-network.ts'

test('an IPv4 address counts as itself', () => {
  expect(clientNetworkOf('203.0.113.7')).toBe('203.0.113.7')
  expect(clientNetworkOf(' 198.51.100.9 ')).toBe('198.51.100.9')
})

test('an IPv4 address mapped into IPv6 counts as the IPv4 address', () => {
  expect(clientNetworkOf('::ffff:203.0.113.7')).toBe('203.0.113.7')
  expect(clientNetworkOf('::FFFF:cb00:7107')).toBe('203.0.113.7')
})

test('IPv6 addresses count by their /64, however they are written', () => {
  const network = '2001:db8:aa:bb::/64'
  expect(clientNetworkOf('2001:db8:aa:bb::1')).toBe(network)
  expect(clientNetworkOf('2001:0db8:00aa:00bb:1234:5678:9abc:def0')).toBe(network)
  expect(clientNetworkOf('2001:DB8:AA:BB:ffff:ffff:ffff:ffff')).toBe(network)
  expect(clientNetworkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  expect(clientNetworkOf('::1')).toBe('0:0:0:0::/64')
  expect(clientNetworkOf('2001:db8:aa:bc::1')).not.toBe(network)
  expect(clientNetworkOf('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64')
})

test('anything else is kept as given', () => {
  expect(clientNetworkOf('unknown')).toBe('unknown')
  expect(clientNetworkOf('2001:db8::zz')).toBe('2001:db8::zz')
})
