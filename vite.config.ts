import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**'] } },
  // The server bundle's entry is our Express app (server/app.ts), which imports the React Router
  // build (future.v8_viteEnvironmentApi: per-environment build options).
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
})
