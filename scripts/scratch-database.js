import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * A new, empty database on the PostgreSQL server at `serverUrl` (tests and the benchmark each get
 * their own), and `drop()`, which removes it even while connections remain.
 * @param {string} serverUrl
 * @param {string} prefix
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
export async function createScratchDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  await runOnServer(serverUrl, `create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => runOnServer(serverUrl, `drop database if exists ${name} with (force)`),
  }
}

/** @param {string} serverUrl @param {string} statement */
async function runOnServer(serverUrl, statement) {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
