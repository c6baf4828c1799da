import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // Tests and benchmarks build into their own directory so they never clobber `build/`.
  buildDirectory: process.env.VITRINA_BUILD_DIR ?? 'build',
  // React Router 8 behaviour, adopted now (one fewer surprise at the upgrade, no warnings):
  // loaders and actions read the page's URL from their `url` argument, since `request.url` of a
  // client navigation is the raw data request (`/x.data?_routes=…`).
  future: {
    v8_middleware: true,
    // Off: it moves a route's clientAction into a file of its own, which a first visit downloads
    // anyway; one file less keeps the checkout within its JavaScript budget (`npm run bench`).
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config
