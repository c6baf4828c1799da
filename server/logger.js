// The process's one logger: JSON lines (pino) on standard output, each line of a request carrying
// its id. Plain JavaScript so the process entry (server/index.js) and the app share it. On a
// terminal outside production the lines are drawn for people (pino-pretty) instead.
import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'
import pretty from 'pino-pretty'

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** The id of the request being served, for every line logged while serving it. */
export const requestIds = new AsyncLocalStorage()

/** LOG_LEVEL when it names a level (the app's settings refuse any other at start), else `info`. */
export function logLevelFrom(asked) {
  return asked && LOG_LEVELS.includes(asked) ? asked : 'info'
}

/** A logger with the shop's settings writing to `destination` (standard output when omitted). */
export function createLogger({ level = logLevelFrom(process.env.LOG_LEVEL), destination } = {}) {
  const options = {
    level,
    mixin() {
      const reqId = requestIds.getStore()
      return reqId ? { reqId } : {}
    },
  }
  if (destination) return pino(options, destination)
  const forPeople = process.stdout.isTTY && process.env.APP_ENV !== 'production'
  return forPeople ? pino(options, pretty({ colorize: true, sync: true })) : pino(options)
}

export const logger = createLogger()
