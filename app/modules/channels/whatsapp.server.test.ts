import { describe, expect, test } from 'vitest'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { startWhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { WhatsAppError, whatsAppClient } from './whatsapp.server.ts'

const standIn = standInForFile(startWhatsAppStandIn)

const client = (options: { baseUrl?: string; token?: string } = {}) =>
  whatsAppClient({
    baseUrl: options.baseUrl ?? standIn().url,
    token: options.token ?? standIn().token,
    phoneNumberId: standIn().phoneNumberId,
  })

const send = (c = client()) => c.sendTemplate('573001234567', 'nuevo_pedido', 'es', ['Ana', '3001234567'])

async function failure(promise: Promise<unknown>): Promise<WhatsAppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(WhatsAppError)
  return error as WhatsAppError
}

describe('sendTemplate: the request', () => {
  test('POSTs the body of integrations.md to /{version}/{phone-number-id}/messages with the Bearer token', async () => {
    await send()
    expect(standIn().requests).toHaveLength(1)
    const request = standIn().requests[0]!
    expect(request.method).toBe('POST')
    expect(request.path).toBe(`/v21.0/${standIn().phoneNumberId}/messages`)
    expect(request.headers.authorization).toBe(`Bearer ${standIn().token}`)
    expect(request.headers['content-type']).toMatch(/^application\/json/)
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      to: '573001234567',
      type: 'template',
      template: {
        name: 'nuevo_pedido',
        language: { code: 'es' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '3001234567' },
            ],
          },
        ],
      },
    })
  })

  test('a base URL with a trailing slash gives the same path', async () => {
    await send(client({ baseUrl: `${standIn().url}/` }))
    expect(standIn().requests[0]!.path).toBe(`/v21.0/${standIn().phoneNumberId}/messages`)
  })
})

describe('sendTemplate: the answer', () => {
  test('returns the wamid of the accepted message', async () => {
    const { messageId } = await send()
    expect(messageId).toMatch(/^wamid\./)
    expect(standIn().sent).toEqual([
      {
        phoneNumberId: standIn().phoneNumberId,
        to: '573001234567',
        name: 'nuevo_pedido',
        language: 'es',
        parameters: ['Ana', '3001234567'],
        messageId,
      },
    ])
  })

  test.each([
    [130429, 'throughput limit'],
    [131056, 'too many messages to the same number'],
  ])('Graph error %i (%s) on HTTP 400 is retryable and keeps its code and message', async (code) => {
    standIn().failNext(1, code)
    const error = await failure(send())
    expect(error.retryable).toBe(true)
    expect(error.code).toBe(code)
    expect(error.message).toContain(`(#${code})`)
    expect(standIn().sent).toHaveLength(0)
  })

  test('a 500 is retryable', async () => {
    standIn().failNext(1, 131000, { status: 500 })
    const error = await failure(send())
    expect(error).toMatchObject({ retryable: true, code: 131000 })
  })

  test('a 502 without JSON is retryable', async () => {
    standIn().answerNext(1, 502, '<html><body>Bad Gateway</body></html>')
    const error = await failure(send())
    expect(error).toMatchObject({ retryable: true, message: 'HTTP 502' })
    expect(error.code).toBeUndefined()
  })

  test('an HTTP 429 is retryable', async () => {
    standIn().failNext(1, 80007, { status: 429 })
    expect((await failure(send())).retryable).toBe(true)
  })

  test('connection refused is retryable', async () => {
    const error = await failure(send(client({ baseUrl: `${await refusedUrl()}/v21.0` })))
    expect(error.retryable).toBe(true)
    expect(error.code).toBeUndefined()
  })

  test('a connection cut without an answer is retryable', async () => {
    standIn().dropNext(1)
    expect((await failure(send())).retryable).toBe(true)
  })

  test.each([
    [131026, 'message undeliverable'],
    [100, 'invalid parameter'],
    [132001, 'template does not exist'],
  ])('Graph error %i (%s) is not retryable', async (code) => {
    standIn().failNext(1, code)
    const error = await failure(send())
    expect(error).toMatchObject({ retryable: false, code })
  })

  test('a wrong token is refused 401 by the stand-in and is not retryable', async () => {
    const error = await failure(send(client({ token: 'EAAG-wrong' })))
    expect(error).toMatchObject({ retryable: false, code: 190 })
    expect(standIn().requests[0]!.headers.authorization).toBe('Bearer EAAG-wrong')
  })

  test('a body the Cloud API would refuse is refused by the stand-in too, not retryable', async () => {
    const error = await failure(
      client().sendTemplate('573001234567', 'nuevo_pedido', 'es', ['', '3001234567']),
    )
    expect(error).toMatchObject({ retryable: false, code: 100 })
  })
})
