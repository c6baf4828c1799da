import fs from 'node:fs'
import pg from 'pg'
import { expect, test, vi } from 'vitest'
import { createTestDatabase, usingPostgres } from '#tests/db.ts'
import { isDatabaseReady } from './client.server.ts'

async function retry<T>(run: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (attempt >= attempts) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

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
      // A query that picks a socket whose error has not arrived yet fails like a query during a
      // failover; the pool must serve the next one on a fresh connection (and never crash).
      const again = await retry(() => database.executeSql('select 1 as one'))
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

test('ready once every migration of this build is applied, not before', async () => {
  const database = await createTestDatabase()
  try {
    expect(await isDatabaseReady(database)).toBe(true)
    // As on a database an older build left behind: the newest migration is missing.
    await database.executeSql(
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)',
    )
    expect(await isDatabaseReady(database)).toBe(false)
  } finally {
    await database.close()
  }
})

test('the build’s migrations are read once: a readiness probe asks only the database', async () => {
  const database = await createTestDatabase()
  const read = vi.spyOn(fs, 'readFileSync')
  try {
    await isDatabaseReady(database)
    read.mockClear()
    for (let probe = 0; probe < 3; probe++) expect(await isDatabaseReady(database)).toBe(true)
    const journalReads = read.mock.calls.filter(([file]) => String(file).endsWith('_journal.json'))
    expect(journalReads).toEqual([])
  } finally {
    read.mockRestore()
    await database.close()
  }
})
