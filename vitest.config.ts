import os from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * Vitest's default is one worker fewer than the cores, so a 2-core machine ran one test file at a
 * time while the other core idled: the module and database tests are CPU-bound, one file per core.
 */
const CORES = Math.max(os.availableParallelism(), 1)

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'app/**/*.test.{ts,tsx}',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            // Real server processes on a real database (PostgreSQL, or PGlite where it fits).
            'tests/reliability/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: CORES,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // After the unit project, never beside it: browser timings under a loaded CPU mislead.
          sequence: { groupOrder: 1 },
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One server and one browser: files run one after another so timings stay stable.
          fileParallelism: false,
          // A browser on a loaded 2-core machine can take well over the default 1 s to settle an
          // animation or answer a fetch; waiting longer for the right outcome weakens nothing.
          expect: { poll: { timeout: 5_000 } },
        },
      },
    ],
  },
})
