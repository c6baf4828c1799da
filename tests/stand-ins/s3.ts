import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local S3-compatible store for adapter tests: path-style `PUT /{bucket}/{key}` (PutObject) and
 * `DELETE /{bucket}/{key}` (DeleteObject), `GET` to read back; requests must carry an AWS SigV4
 * Authorization header for the expected access key. `failNext` answers the next requests with
 * S3's 503 SlowDown error (the SDK retries, so fail more than its attempts to see an error);
 * `putsBeforeFailing` lets that many uploads through and then refuses every further one the same
 * way, as a bucket that fails in the middle of a product's images.
 */

export const STAND_IN_S3 = {
  bucket: 'vitrina-media',
  region: 'us-east-1',
  accessKeyId: 'AKIASTANDIN000000000',
  secretAccessKey: 'secreto-del-s3-local-0000000000000000000',
}

export type StoredObject = { body: Buffer; contentType: string | undefined; cacheControl: string | undefined }
export type S3Request = { method: string; path: string; authorization: string | undefined }

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

function xmlError(code: string, message: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>standin</RequestId></Error>`
}

export async function startS3StandIn() {
  const objects = new Map<string, StoredObject>()
  const requests: S3Request[] = []
  const state: { failNext: number; putsBeforeFailing: number | null } = {
    failNext: 0,
    putsBeforeFailing: null,
  }
  const server: Server = createServer((incoming, response) => {
    void readBody(incoming).then((body) => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
      const authorization = incoming.headers.authorization
      requests.push({ method: incoming.method ?? 'GET', path: url.pathname, authorization })
      const send = (status: number, text = '', type = 'application/xml') => {
        response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) })
        response.end(text)
      }
      if (!authorization?.startsWith(`AWS4-HMAC-SHA256 Credential=${STAND_IN_S3.accessKeyId}/`)) {
        return send(403, xmlError('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist.'))
      }
      if (state.failNext > 0) {
        state.failNext--
        return send(503, xmlError('SlowDown', 'Please reduce your request rate.'))
      }
      if (incoming.method === 'PUT' && state.putsBeforeFailing !== null) {
        if (state.putsBeforeFailing === 0)
          return send(503, xmlError('SlowDown', 'Please reduce your request rate.'))
        state.putsBeforeFailing--
      }
      const [, bucket, ...keyParts] = url.pathname.split('/')
      const key = decodeURIComponent(keyParts.join('/'))
      if (bucket !== STAND_IN_S3.bucket) {
        return send(404, xmlError('NoSuchBucket', 'The specified bucket does not exist'))
      }
      switch (incoming.method) {
        case 'PUT':
          objects.set(key, {
            body,
            contentType: incoming.headers['content-type'],
            cacheControl: incoming.headers['cache-control'],
          })
          response.setHeader('ETag', '"standin"')
          return send(200)
        case 'DELETE':
          objects.delete(key)
          return send(204)
        case 'GET': {
          const object = objects.get(key)
          if (!object) return send(404, xmlError('NoSuchKey', 'The specified key does not exist.'))
          response.writeHead(200, { 'Content-Type': object.contentType ?? 'application/octet-stream' })
          return response.end(object.body)
        }
        default:
          return send(405, xmlError('MethodNotAllowed', 'The specified method is not allowed.'))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    state,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
