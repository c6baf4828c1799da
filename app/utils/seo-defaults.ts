// Apart from seo.ts, which every storefront page's scripts carry (vite.config.ts): the storefront
// words these defaults in its loaders, so only the back office's previews need them in a browser.

/** A product's default meta description: its description on one line, at most 160 characters. */
export const productDescription = (description: string) =>
  description.replace(/\s+/g, ' ').trim().slice(0, 160)

/** A category's default meta description. */
export const categoryDescription = (name: string) =>
  `${name}: compra en línea con envío a toda Colombia y pago contra entrega.`
