/**
 * Every storefront and admin URL the app links to or redirects to, built in one place (the URL
 * map itself is `app/routes.ts`). Path segments taken from data are always encoded.
 */

export const categoryPath = (category: { id: string; name: string }) =>
  `/categoria/${encodeURIComponent(category.id)}/${encodeURIComponent(category.name)}`
