import { customType } from 'drizzle-orm/pg-core'

/**
 * Raw bytes kept in the database (a carrier's label PDF, a buyer's payment receipt): private like
 * the order they belong to, and backed up with it.
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})
