import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // Tests and benchmarks build into their own directory so they never clobber `build/`.
  buildDirectory: process.env.VITRINA_BUILD_DIR ?? 'build',
} satisfies Config
