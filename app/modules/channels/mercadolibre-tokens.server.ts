import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import { channelCredentials } from './schema.ts'
import type { SecretBox } from './secret-box.server.ts'

const CHANNEL = 'mercadolibre'
/** Refresh a little before the 6 hours run out, so a push never starts with a dying token. */
const EARLY_REFRESH_MS = 10 * 60 * 1000

export type TokenPair = { accessToken: string; refreshToken: string; expiresInSeconds: number }

/** Where the adapter gets its Bearer token. */
export interface TokenSource {
  accessToken(): Promise<string>
  /** A new access token after `refused` was answered 401; refreshes at most once for it. */
  renew(refused: string): Promise<string>
}

type Stored = { accessToken: string; refreshToken: string; expiresAt: Date | null }

/**
 * MercadoLibre's OAuth pair, kept in `channel_credentials`. Each refresh token works once, so a
 * refresh happens inside a transaction holding the row's lock (`select … for update`): a second
 * worker waits, then finds the new pair and uses it instead of spending the old refresh token
 * again. The pair is stored in the same transaction, before anyone else can read the row.
 */
export function mercadoLibreTokens(options: {
  db: Db
  box: SecretBox
  /** The configured authorisation: the first pair, replaced when ML_REFRESH_TOKEN changes. */
  seed: { refreshToken: string; accessToken?: string }
  exchange: (refreshToken: string) => Promise<TokenPair>
  now?: () => Date
}): TokenSource {
  const { db, box, seed, exchange } = options
  const now = options.now ?? (() => new Date())
  const origin = createHash('sha256').update(seed.refreshToken).digest('hex').slice(0, 32)

  const seeded = () => ({
    accessToken: box.seal(seed.accessToken ?? ''),
    refreshToken: box.seal(seed.refreshToken),
    // A configured access token's age is unknown: it is used until MercadoLibre refuses it.
    expiresAt: seed.accessToken ? null : new Date(0),
    origin,
    updatedAt: now(),
  })

  /** The stored pair, or null when it must be (re)started from the configuration. */
  const readable = (row: typeof channelCredentials.$inferSelect | undefined): Stored | null => {
    if (!row || row.origin !== origin) return null
    const accessToken = box.open(row.accessToken)
    const refreshToken = box.open(row.refreshToken)
    if (accessToken === null || refreshToken === null) return null
    return { accessToken, refreshToken, expiresAt: row.expiresAt }
  }

  const usable = (stored: Stored, refused: string | null) =>
    stored.accessToken !== '' &&
    stored.accessToken !== refused &&
    (stored.expiresAt === null || stored.expiresAt.getTime() - EARLY_REFRESH_MS > now().getTime())

  async function lockedState(tx: Tx): Promise<Stored> {
    await tx
      .insert(channelCredentials)
      .values({ channel: CHANNEL, ...seeded() })
      .onConflictDoNothing()
    const [row] = await tx
      .select()
      .from(channelCredentials)
      .where(eq(channelCredentials.channel, CHANNEL))
      .for('update')
    const stored = readable(row)
    if (stored) return stored
    // A new authorisation was configured, or SESSION_SECRET changed and the pair cannot be read.
    const fresh = seeded()
    await tx.update(channelCredentials).set(fresh).where(eq(channelCredentials.channel, CHANNEL))
    return {
      accessToken: seed.accessToken ?? '',
      refreshToken: seed.refreshToken,
      expiresAt: fresh.expiresAt,
    }
  }

  function refreshUnlessDone(refused: string | null): Promise<string> {
    return db.transaction(async (tx) => {
      const stored = await lockedState(tx)
      if (usable(stored, refused)) return stored.accessToken
      const pair = await exchange(stored.refreshToken)
      await tx
        .update(channelCredentials)
        .set({
          accessToken: box.seal(pair.accessToken),
          refreshToken: box.seal(pair.refreshToken),
          expiresAt: new Date(now().getTime() + pair.expiresInSeconds * 1000),
          updatedAt: now(),
        })
        .where(eq(channelCredentials.channel, CHANNEL))
      return pair.accessToken
    })
  }

  return {
    async accessToken() {
      const [row] = await db.select().from(channelCredentials).where(eq(channelCredentials.channel, CHANNEL))
      const stored = readable(row)
      if (stored && usable(stored, null)) return stored.accessToken
      return refreshUnlessDone(stored?.accessToken ?? null)
    },
    renew: (refused) => refreshUnlessDone(refused),
  }
}
