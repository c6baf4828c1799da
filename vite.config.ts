import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { compression } from 'vite-plugin-compression2'

/**
 * Small modules every storefront page imports. Rolldown puts them in one file with React instead of
 * ten files of a few hundred bytes, each gzipped on its own: about 1 KB less first-visit JavaScript
 * on a product page (`npm run bench`), at the cost of a few bytes on pages that skip one of them.
 */
const STOREFRONT_COMMON = [
  'utils/paths.ts',
  'utils/money.ts',
  'utils/seo.ts',
  'utils/whatsapp-link.ts',
  'components/price.tsx',
  'components/list-thumb.tsx',
  'components/icons.tsx',
  'components/toast.tsx',
  'components/hydrate-later.tsx',
  'components/not-found.tsx',
  'modules/catalog/pricing.ts',
  'modules/cart/cart-store.ts',
  'components/footer.tsx',
].map((file) => `/app/${file}`)

/**
 * What the cart and the checkout share (their lines, totals and discount code): one file instead of
 * four small ones, each gzipped on its own (`npm run bench`: the checkout's first visit).
 */
const CART_COMMON = [
  'components/use-cart-products.ts',
  'components/totals.tsx',
  'components/discount-code.tsx',
  'modules/checkout/cart-quote.ts',
  // Also the back office's forms' (they load this file too, a few KB they can spare).
  'utils/action-answer.ts',
].map((file) => `/app/${file}`)

/**
 * A product's picture and its "add to cart" form: the cards, the product page and the cart show
 * them, the checkout does not. One file for both, outside storefront-common so the checkout's first
 * visit does not download them (`npm run bench`).
 */
const SHELF_COMMON = ['components/product-image.tsx', 'components/cart-form.tsx'].map(
  (file) => `/app/${file}`,
)

const endsWithAny = (files: string[]) => (id: string) =>
  files.some((file) => id.replaceAll('\\', '/').endsWith(file))

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // Hashed files never change: compress them once at the highest levels (Brotli 11, gzip 9)
    // instead of on every request at the levels a live response can afford (server/index.js
    // serves these copies).
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  resolve: { tsconfigPaths: true },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'storefront-common', test: endsWithAny(STOREFRONT_COMMON) },
            { name: 'cart-common', test: endsWithAny(CART_COMMON) },
            { name: 'shelf-common', test: endsWithAny(SHELF_COMMON) },
          ],
        },
      },
    },
  },
  server: { watch: { ignored: ['**/data/**', '**/test-results/**'] } },
  // The server bundle's entry is our Express app (server/app.ts), which imports the React Router
  // build (future.v8_viteEnvironmentApi: per-environment build options).
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
})
