import { randomBytes } from 'node:crypto'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local WhatsApp Cloud API for adapter tests: `POST /{version}/{phone-number-id}/messages` with
 * Bearer auth, the Graph API's success and error bodies, and switches to fail the next requests.
 */

export const STAND_IN_WHATSAPP_TOKEN = 'EAAGstandin0000000000000000000000000000'
export const STAND_IN_PHONE_NUMBER_ID = '106540352242922'
export const GRAPH_VERSION = 'v21.0'

export type GraphError = {
  error: {
    message: string
    type: string
    code: number
    error_subcode?: number
    error_data?: unknown
    fbtrace_id: string
  }
}

/** Messages of the Graph API for the codes the tests use. */
const CODE_MESSAGES: Record<number, string> = {
  1: 'An unknown error occurred',
  2: 'Service temporarily unavailable',
  4: '(#4) Application request limit reached',
  100: '(#100) Invalid parameter',
  131000: '(#131000) Something went wrong',
  130429: '(#130429) Rate limit hit',
  131026: '(#131026) Message undeliverable',
  131056: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
  132001: '(#132001) Template name does not exist in the translation',
  190: 'Invalid OAuth access token - Cannot parse access token',
}

export function graphError(
  code: number,
  options: { message?: string; subcode?: number; type?: string } = {},
): GraphError {
  return {
    error: {
      message: options.message ?? CODE_MESSAGES[code] ?? `(#${code}) Error`,
      type: options.type ?? 'OAuthException',
      code,
      ...(options.subcode !== undefined ? { error_subcode: options.subcode } : {}),
      error_data: { messaging_product: 'whatsapp', details: CODE_MESSAGES[code] ?? 'Error' },
      fbtrace_id: `A${randomBytes(8).toString('base64url')}`,
    },
  }
}

type Failure = { status: number; body: unknown } | { status: number; text: string } | { drop: true }

/** A template message as the stand-in accepted it. */
export type SentTemplate = {
  phoneNumberId: string
  to: string
  name: string
  language: string
  /** Text parameters of the body component, in order. */
  parameters: string[]
  messageId: string
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Returns the accepted template, or a Graph error for the first problem in the body. */
function readTemplate(body: unknown): Omit<SentTemplate, 'phoneNumberId' | 'messageId'> | GraphError {
  const invalid = (details: string) => graphError(100, { message: `(#100) ${details}` })
  if (!isObject(body)) return invalid('The parameter messaging_product is required.')
  if (body.messaging_product !== 'whatsapp') return invalid('The parameter messaging_product is required.')
  if (typeof body.to !== 'string' || !/^\d{8,15}$/.test(body.to)) return invalid('Invalid parameter to')
  if (body.type !== 'template') return invalid('Param type must be template for this stand-in')
  const template = body.template
  if (!isObject(template) || typeof template.name !== 'string' || template.name === '') {
    return invalid('Param template[name] is required')
  }
  if (!isObject(template.language) || typeof template.language.code !== 'string') {
    return invalid('Param template[language][code] is required')
  }
  const parameters: string[] = []
  if (template.components !== undefined) {
    if (!Array.isArray(template.components)) return invalid('Param template[components] must be an array')
    for (const component of template.components as unknown[]) {
      if (!isObject(component) || typeof component.type !== 'string') {
        return invalid('Param template[components][type] is required')
      }
      if (component.type !== 'body') continue
      if (!Array.isArray(component.parameters)) return invalid('Param parameters must be an array')
      for (const parameter of component.parameters as unknown[]) {
        if (!isObject(parameter) || parameter.type !== 'text' || typeof parameter.text !== 'string') {
          return invalid('Param text is required for parameters of type text')
        }
        if (parameter.text.trim() === '') return invalid('Parameter text can not be empty')
        parameters.push(parameter.text)
      }
    }
  }
  return { to: body.to, name: template.name, language: template.language.code, parameters }
}

export type WhatsAppStandIn = Awaited<ReturnType<typeof startWhatsAppStandIn>>

export async function startWhatsAppStandIn(
  options: { token?: string; phoneNumberId?: string; version?: string } = {},
) {
  const token = options.token ?? STAND_IN_WHATSAPP_TOKEN
  const phoneNumberId = options.phoneNumberId ?? STAND_IN_PHONE_NUMBER_ID
  const version = options.version ?? GRAPH_VERSION
  const requests: RecordedRequest[] = []
  const sent: SentTemplate[] = []
  const failures: Failure[] = []
  const path = new RegExp(`^/${version.replace(/\./g, '\\.')}/([^/]+)/messages$`)

  const { origin, close } = await listen(requests, (request, response) => {
    const failure = failures.shift()
    if (failure) {
      if ('drop' in failure) return response.socket?.destroy()
      if ('text' in failure) {
        response.writeHead(failure.status, { 'Content-Type': 'text/html' })
        return response.end(failure.text)
      }
      return sendJson(response, failure.status, failure.body)
    }
    const match = path.exec(request.path)
    if (request.method !== 'POST' || !match) {
      return sendJson(response, 400, graphError(100, { message: 'Unknown path components', subcode: 2500 }))
    }
    if (bearerToken(request.headers) !== token) return sendJson(response, 401, graphError(190))
    if (decodeURIComponent(match[1]!) !== phoneNumberId) {
      return sendJson(
        response,
        400,
        graphError(100, {
          message: `Unsupported post request. Object with ID '${match[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          type: 'GraphMethodException',
          subcode: 33,
        }),
      )
    }
    const template = readTemplate(request.body)
    if ('error' in template) return sendJson(response, 400, template)
    const messageId = `wamid.${randomBytes(24).toString('base64url')}`
    sent.push({ ...template, phoneNumberId, messageId })
    return sendJson(response, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: template.to, wa_id: template.to }],
      messages: [{ id: messageId, message_status: 'accepted' }],
    })
  })

  return {
    /** The base URL the client is given, with the Graph version: `http://127.0.0.1:port/v21.0`. */
    url: `${origin}/${version}`,
    origin,
    token,
    phoneNumberId,
    requests,
    /** Template messages accepted, in order. */
    sent,
    /**
     * The next `count` requests fail with a Graph error of `code` (HTTP `status`, 400 by default,
     * as the Cloud API answers most errors), or with `body` as given.
     */
    failNext(
      count: number,
      code: number,
      options: { status?: number; subcode?: number; body?: unknown } = {},
    ) {
      const body = options.body ?? graphError(code, { subcode: options.subcode })
      for (let i = 0; i < count; i++) failures.push({ status: options.status ?? 400, body })
    },
    /** The next `count` requests answer HTTP `status` with a text body (e.g. a proxy's 502 page). */
    answerNext(count: number, status: number, text: string) {
      for (let i = 0; i < count; i++) failures.push({ status, text })
    },
    /** The next `count` connections are cut without an answer. */
    dropNext(count: number) {
      for (let i = 0; i < count; i++) failures.push({ drop: true })
    },
    reset() {
      requests.length = 0
      sent.length = 0
      failures.length = 0
    },
    stop: close,
  }
}

export async function stopWhatsAppStandIn(standIn: WhatsAppStandIn | undefined) {
  await standIn?.stop()
}
