import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** What some mounted file systems (network shares, some container volumes) answer to a hard link. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/**
 * The text kept in `file`, or `create()`'s, written there first. Processes of one shop that start
 * at the same moment on a shared DATA_DIR all end up with the same text: the file appears whole
 * (written aside, then linked into place, which fails if it exists) and whoever comes second reads
 * the first one's. `usable` says whether kept text can be used; unusable text is replaced.
 */
export function keptFileText(file: string, create: () => string, usable: (text: string) => boolean): string {
  const read = () => {
    try {
      const text = fs.readFileSync(file, 'utf8')
      return usable(text) ? text : null
    } catch {
      return null
    }
  }
  const kept = read()
  if (kept !== null) return kept
  const text = create()
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  fs.writeFileSync(aside, text, { mode: 0o600 })
  try {
    fs.linkSync(aside, file)
    return text
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code && NO_HARD_LINKS.has(code)) {
      // A file system without hard links: put ours in place (the last of processes starting
      // together wins, as before there was a check).
      fs.renameSync(aside, file)
      return text
    }
    if (code !== 'EEXIST') throw error
    const theirs = read()
    if (theirs !== null) return theirs
    // Unusable text from an older version: ours replaces it.
    fs.renameSync(aside, file)
    return text
  } finally {
    fs.rmSync(aside, { force: true })
  }
}
