import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { closeGracefully } from './shutdown.js'

/** A server whose answers take `delayMs`, and a way to know when a request has reached it. */
async function slowServer(delayMs: number) {
  let arrived: () => void = () => {}
  const reached = new Promise<void>((resolve) => (arrived = resolve))
  const server = http.createServer((_req, res) => {
    arrived()
    setTimeout(() => res.end('listo'), delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return { server, url, reached }
}

test('a request in flight when the shutdown starts is answered; new connections are refused', async () => {
  const { server, url, reached } = await slowServer(300)
  const inFlight = fetch(url).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }))
  await reached
  const closed = closeGracefully(server, 10_000)
  expect(await inFlight).toEqual({ status: 200, body: 'listo' })
  await closed
  await expect(fetch(url)).rejects.toThrow()
})

test('a request still running after the grace period is cut and the server closes', async () => {
  const { server, url, reached } = await slowServer(60_000)
  const inFlight = fetch(url).then(
    () => 'answered',
    () => 'cut',
  )
  await reached
  await closeGracefully(server, 200)
  expect(await inFlight).toBe('cut')
})
