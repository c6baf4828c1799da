import pg from 'pg'
import { expect, test } from 'vitest'
import { createTestDatabase, usingPostgres } from '#tests/db.ts'

test.runIf(usingPostgres())(
  'PostgreSQL: a connection the server drops is replaced, never an uncaught crash',
  async () => {
    const database = await createTestDatabase()
    try {
      const { rows } = await database.executeSql('select current_database() as name')
      const name = (rows[0] as { name: string }).name

      const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
      await killer.connect()
      await killer.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      )
      await killer.end()
      // Give the dropped sockets time to report their error to the pool.
      await new Promise((resolve) => setTimeout(resolve, 200))

      const again = await database.executeSql('select 1 as one')
      expect(again.rows).toEqual([{ one: 1 }])
    } finally {
      await database.close()
    }
  },
)

test('PGlite or PostgreSQL: the committed migrations apply and the schema answers', async () => {
  const database = await createTestDatabase()
  try {
    const { rows } = await database.executeSql('select count(*)::int as n from products')
    expect(rows).toEqual([{ n: 0 }])
  } finally {
    await database.close()
  }
})
