import { defineConfig } from 'vitest/config'

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
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
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
