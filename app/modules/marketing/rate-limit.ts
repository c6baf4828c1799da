/**
 * A fixed-window counter per client (e.g. its network address), in this process's memory: enough
 * to keep one script from flooding the Conversions API through us. Several app instances each keep
 * their own count.
 */
export function rateLimiter(options: { limit: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now
  const windows = new Map<string, { start: number; count: number }>()
  return {
    /** True when the client may go on; false once it used up this window. */
    take(key: string): boolean {
      const at = now()
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (at - w.start >= options.windowMs) windows.delete(k)
      }
      const current = windows.get(key)
      if (!current || at - current.start >= options.windowMs) {
        windows.set(key, { start: at, count: 1 })
        return true
      }
      current.count += 1
      return current.count <= options.limit
    },
  }
}
export type RateLimiter = ReturnType<typeof rateLimiter>
