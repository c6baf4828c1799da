/**
 * Stops taking connections and lets the requests already in flight finish; idle keep-alive
 * connections close at once. Whatever is still running after `graceMs` is cut, so a stuck client
 * cannot hold a deploy forever. Resolves once the server is closed.
 */
export function closeGracefully(server, graceMs) {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs)
    server.close(() => {
      clearTimeout(cut)
      resolve()
    })
    server.closeIdleConnections()
  })
}
