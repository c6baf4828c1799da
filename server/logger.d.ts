import type { AsyncLocalStorage } from 'node:async_hooks'
import type { DestinationStream, Level, Logger } from 'pino'

export const LOG_LEVELS: (Level | 'silent')[]
export const requestIds: AsyncLocalStorage<string>
export function logLevelFrom(asked: string | undefined): Level | 'silent'
export function createLogger(options?: { level?: Level | 'silent'; destination?: DestinationStream }): Logger
export const logger: Logger
