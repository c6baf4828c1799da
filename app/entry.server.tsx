import { PassThrough, Transform, type TransformCallback } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import type { RenderToPipeableStreamOptions } from 'react-dom/server'
import { renderToPipeableStream } from 'react-dom/server'
import type { EntryContext, RouterContextProvider } from 'react-router'
import { ServerRouter } from 'react-router'
import { logger } from '#app/utils/logger.server.ts'
import { InlineStylesContext } from '#app/components/inline-styles.tsx'
import { cspNonceOf, NonceContext } from '#app/utils/csp-nonce.ts'
import { DeferScripts } from '#app/utils/defer-scripts.server.ts'
import appCss from './app.css?inline'

/** React Router's default Node entry, except that the HTML reaches the server in few pieces. */
export const streamTimeout = 5_000

/**
 * Joins the chunks React writes in one turn of the event loop into one. `@react-router/express`
 * flushes the response after every chunk, and `compression` answers each flush with a full zlib
 * flush: a page written in dozens of small chunks was compressed as dozens of separate blocks,
 * about twice the bytes and several times the CPU of one gzip stream, so pages with more product
 * cards cost far more than their extra HTML. Later chunks (streamed data) still go out at once.
 */
class CoalesceChunks extends Transform {
  private parts: Buffer[] = []
  private scheduled = false

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.parts.push(chunk)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => {
        this.scheduled = false
        if (this.parts.length) this.push(Buffer.concat(this.parts.splice(0)))
      })
    }
    callback()
  }

  override _flush(callback: TransformCallback) {
    if (this.parts.length) this.push(Buffer.concat(this.parts.splice(0)))
    callback()
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Bots and SPA mode wait for all content, as in the default entry.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
    // The Content-Security-Policy's nonce of this answer: every inline script and style carries it.
    const nonce = cspNonceOf(loadContext)

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <InlineStylesContext.Provider value={appCss}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </InlineStylesContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId)
              timeoutId = undefined
              callback()
            },
          })
          const coalesced = new CoalesceChunks()
          body.pipe(coalesced)
          const html = coalesced.pipe(new DeferScripts())
          responseHeaders.set('Content-Type', 'text/html')
          pipe(body)
          resolve(
            new Response(createReadableStreamFromReadable(html), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) logger.error({ err: error }, 'Error al transmitir la página')
        },
      },
    )
  })
}
