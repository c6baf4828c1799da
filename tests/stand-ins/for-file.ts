import { afterAll, beforeAll, beforeEach } from 'vitest'

/**
 * A stand-in shared by one test file: started before its tests, stopped after them, reset before
 * each one. Read it through the returned function (it exists once the file's tests run).
 */
export function standInForFile<T extends { stop(): Promise<void> | void; reset(): void }>(
  start: () => Promise<T>,
): () => T {
  let standIn: T | undefined
  beforeAll(async () => {
    standIn = await start()
  })
  afterAll(async () => {
    await standIn?.stop()
  })
  beforeEach(() => standIn!.reset())
  return () => standIn!
}
