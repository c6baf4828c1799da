/** WhatsApp Cloud API: template messages to the business numbers (integrations.md). */

export type WhatsAppOptions = {
  baseUrl: string
  token: string
  phoneNumberId: string
  fetch?: typeof fetch
}

/** 130429 throughput limit, 131056 too many messages to one number: worth retrying later. */
const RETRYABLE_CODES = new Set([130429, 131056, 131000, 1, 2, 4, 80007])

export class WhatsAppError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: number,
  ) {
    super(message)
  }
}

export interface WhatsAppClient {
  sendTemplate(
    to: string,
    template: string,
    language: string,
    parameters: string[],
  ): Promise<{ messageId: string }>
}

export function whatsAppClient(options: WhatsAppOptions): WhatsAppClient {
  const doFetch = options.fetch ?? fetch
  const url = `${options.baseUrl.replace(/\/$/, '')}/${encodeURIComponent(options.phoneNumberId)}/messages`
  return {
    async sendTemplate(to, template, language, parameters) {
      let response: Response
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            to,
            type: 'template',
            template: {
              name: template,
              language: { code: language },
              components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }],
            },
          }),
          signal: AbortSignal.timeout(15_000),
        })
      } catch (error) {
        throw new WhatsAppError(error instanceof Error ? error.message : String(error), true)
      }
      const payload = (await response.json().catch(() => null)) as {
        messages?: { id: string }[]
        error?: { message?: string; code?: number }
      } | null
      if (!response.ok || payload?.error) {
        const code = payload?.error?.code
        const retryable =
          response.status >= 500 ||
          response.status === 429 ||
          (code !== undefined && RETRYABLE_CODES.has(code))
        throw new WhatsAppError(payload?.error?.message ?? `HTTP ${response.status}`, retryable, code)
      }
      return { messageId: payload?.messages?.[0]?.id ?? '' }
    },
  }
}
