import { expect, test } from 'vitest'
import { isLoopbackAddress, isLoopbackHost, isLoopbackUrl } from './loopback.ts'

test('loopback URLs: localhost, 127.0.0.0/8 and [::1], nothing that only looks like them', () => {
  expect(isLoopbackUrl('http://localhost:3000')).toBe(true)
  expect(isLoopbackUrl('http://127.0.0.1')).toBe(true)
  expect(isLoopbackUrl('http://127.1.2.3:3000')).toBe(true)
  expect(isLoopbackUrl('http://[::1]:3000')).toBe(true)
  expect(isLoopbackUrl('https://localhost.tienda.co')).toBe(false)
  expect(isLoopbackUrl('https://127.0.0.1.tienda.co')).toBe(false)
  expect(isLoopbackUrl('https://tienda.example.co')).toBe(false)
})

test('loopback addresses as a socket reports them, IPv4 mapped into IPv6 included', () => {
  for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
    expect(isLoopbackAddress(address)).toBe(true)
  }
  for (const address of [undefined, '', '10.0.0.1', '::ffff:10.0.0.1', 'localhost', '::2']) {
    expect(isLoopbackAddress(address)).toBe(false)
  }
})

test('loopback host names as URL.hostname gives them', () => {
  for (const host of ['localhost', '127.0.0.1', '[::1]']) expect(isLoopbackHost(host)).toBe(true)
  for (const host of ['tienda.co', 'localhost.tienda.co', '[::2]', ''])
    expect(isLoopbackHost(host)).toBe(false)
})
