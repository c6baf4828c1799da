import http from 'node:http'

/**
 * One request sent with node:http, for what fetch will not do (set Host, stream a body without a
 * length); `send` writes the body, and the request is ended after it.
 */
export function rawRequest(
  options: http.RequestOptions,
  send: (request: http.ClientRequest) => void = () => {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(options, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body }))
    })
    request.on('error', reject)
    send(request)
    request.end()
  })
}
