import { getTableColumns, getTableName, sql } from 'drizzle-orm'
import { toSnakeCase } from 'drizzle-orm/casing'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client.server.ts'

/**
 * Many rows in one statement with a single JSON parameter. Drizzle's multi-row insert builder
 * spends seconds building 10,000-product seeds; this keeps the large seed fast. Every row must set
 * the same keys (keys left out take the column default).
 */
export async function bulkInsert<T extends PgTable>(db: DbOrTx, table: T, rows: T['$inferInsert'][]) {
  if (!rows.length) return
  const keys = Object.keys(rows[0]!)
  if (rows.some((row) => Object.keys(row).length !== keys.length)) {
    throw new Error(`bulkInsert(${getTableName(table)}): every row must set the same columns`)
  }
  const tableColumns = getTableColumns(table)
  // The same key → column name rule as the client's `casing: 'snake_case'`.
  const names = keys.map((key) => {
    const column = tableColumns[key]!
    return column.keyAsName ? toSnakeCase(key) : column.name
  })
  const columns = sql.raw(names.map((name) => `"${name}"`).join(', '))
  const json = JSON.stringify(
    rows.map((row) =>
      Object.fromEntries(keys.map((key, i) => [names[i], (row as Record<string, unknown>)[key]])),
    ),
  )
  await db.execute(
    sql`insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${json}::json)`,
  )
}
