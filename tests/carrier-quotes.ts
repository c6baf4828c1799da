import { eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { enviaProvider } from '#app/modules/carriers/envia.server.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { SHIPPING_ZONES_KEY } from '#app/modules/settings/validators.ts'
import type { EnviaStandIn } from '#tests/stand-ins/envia.ts'

/** The shop's pickup in Medellín and the seller, as "Configuraciones" keeps them. */
export const PICKUP = {
  carrierOriginStreet: 'Calle 10 # 43-12, local 105',
  carrierOriginMunicipality: '05001',
  carrierOriginPhone: '3001234567',
  sellerLegalName: 'Vitrina Accesorios S.A.S.',
  sellerNit: '900123456-7',
}

const CARRIER_KEYS = ['carrierQuotes', ...Object.keys(PICKUP)]

/** Saves these settings as "Configuraciones" would (a null value deletes the key: its default applies). */
export async function saveSettings(db: DbOrTx, values: Record<string, unknown>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === null) {
      await db.delete(settings).where(eq(settings.key, key))
      continue
    }
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } })
  }
}

/** Live quotes on (`quotes`: "cheapest" or a carrier code) with the pickup address saved. */
export function quoteLive(db: DbOrTx, quotes = 'cheapest') {
  return saveSettings(db, { carrierQuotes: quotes, ...PICKUP })
}

/** Back to the flat cost, without pickup address nor zones. */
export async function quoteFlat(db: DbOrTx) {
  await db.delete(settings).where(inArray(settings.key, [...CARRIER_KEYS, SHIPPING_ZONES_KEY]))
}

/** Envia against the stand-in (a new provider each call: its quote cache starts empty). */
export const standInCarriers = (standIn: EnviaStandIn) =>
  enviaProvider({ baseUrl: standIn.url, token: standIn.token })
