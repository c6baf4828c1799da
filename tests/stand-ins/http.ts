import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as a stand-in saw it, for assertions. */
export type RecordedRequest = {
  method: string
  /** Path without the query string. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** Parsed JSON when the body was JSON, else the raw text (undefined when empty). */
  body: unknown
  rawBody: string
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void

export function sendJson(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  })
  response.end(text)
}

export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const match = /^Bearer (.+)$/.exec(headers.authorization ?? '')
  return match ? match[1]! : null
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

/**
 * A node:http server on 127.0.0.1 with a free port that records every request before handing it
 * to `handle`. `close()` also drops connections a test left hanging.
 */
export async function listen(requests: RecordedRequest[], handle: Handler) {
  const server: Server = createServer((incoming, response) => {
    readBody(incoming).then(
      (rawBody) => {
        const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
        let body: unknown = rawBody === '' ? undefined : rawBody
        if (rawBody !== '' && /json/.test(incoming.headers['content-type'] ?? '')) {
          try {
            body = JSON.parse(rawBody)
          } catch {
            // Kept as text: the handler answers the malformed body.
          }
        }
        const recorded: RecordedRequest = {
          method: incoming.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: incoming.headers,
          body,
          rawBody,
        }
        requests.push(recorded)
        handle(recorded, response)
      },
      () => response.destroy(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
    },
  }
}

/** A 127.0.0.1 URL where nothing listens: a port that was free a moment ago, now closed. */
export async function refusedUrl() {
  const { origin, close } = await listen([], (_request, response) => response.end())
  await close()
  return origin
}
