// The app's way to the process logger (server/logger.js): import `logger` from here.
export { createLogger, logger, requestIds } from '../../server/logger.js'
