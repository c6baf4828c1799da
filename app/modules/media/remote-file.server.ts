import { MAX_VIDEO_BYTES, MB } from './validators.ts'

export type RemoteFile = { ok: true; bytes: Buffer } | { ok: false; reason: string }

/** Brings a file from another server (the original shop's storage) so it can be stored here. */
export interface RemoteFiles {
  download(url: string): Promise<RemoteFile>
}

export type RemoteFilesOptions = {
  /** The whole download, connection to last byte. */
  timeoutMs?: number
  /** Larger files are refused without reading them whole (the video upload limit by default). */
  maxBytes?: number
}

/**
 * Downloads over HTTP(S) with a time limit and a size bound; never throws: a file that cannot be
 * had comes back with the reason, in Spanish, for the caller's report.
 */
export function remoteFiles({
  timeoutMs = 15_000,
  maxBytes = MAX_VIDEO_BYTES,
}: RemoteFilesOptions = {}): RemoteFiles {
  const tooLarge = `pesa más de ${maxBytes >= MB ? `${Math.floor(maxBytes / MB)} MB` : `${Math.ceil(maxBytes / 1024)} KB`}`
  const seconds = String(Math.round(timeoutMs / 100) / 10).replace('.', ',')
  return {
    async download(url) {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        return { ok: false, reason: 'la dirección no es válida' }
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return { ok: false, reason: 'la dirección no es http ni https' }
      }
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), timeoutMs)
      try {
        const response = await fetch(parsed, { signal: controller.signal, redirect: 'follow' })
        if (!response.ok) {
          await response.body?.cancel().catch(() => {})
          return { ok: false, reason: `el servidor respondió HTTP ${response.status}` }
        }
        const declared = Number(response.headers.get('content-length'))
        if (Number.isFinite(declared) && declared > maxBytes) {
          await response.body?.cancel().catch(() => {})
          return { ok: false, reason: tooLarge }
        }
        const chunks: Buffer[] = []
        let size = 0
        const reader = response.body?.getReader()
        for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
          size += chunk.value.byteLength
          // A server may send more than it declared, or declare nothing: count what arrives.
          if (size > maxBytes) {
            controller.abort()
            return { ok: false, reason: tooLarge }
          }
          chunks.push(Buffer.from(chunk.value))
        }
        if (size === 0) return { ok: false, reason: 'el archivo está vacío' }
        return { ok: true, bytes: Buffer.concat(chunks) }
      } catch (error) {
        if (controller.signal.aborted) {
          return { ok: false, reason: `no respondió en ${seconds} s` }
        }
        const cause = (error as { cause?: { code?: string; message?: string } }).cause
        return {
          ok: false,
          reason: `no se pudo descargar (${cause?.code ?? cause?.message ?? String(error)})`,
        }
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
