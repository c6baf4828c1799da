import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { inputClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { toast } from '#app/components/toast.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { feedShopOf, readCatalogFeeds } from '#app/modules/feeds/feeds.server.ts'
import {
  FEED_PATHS,
  FEED_PLATFORMS,
  LEFT_OUT_REASONS,
  type FeedPlatform,
  type LeftOutProduct,
} from '#app/modules/feeds/feeds.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { whatsappLink } from '#app/utils/whatsapp-link.ts'
import { listCheckoutDrafts } from '#app/modules/checkout/drafts.server.ts'
import { ABANDONED_AFTER_MINUTES, DRAFT_KEPT_DAYS } from '#app/modules/checkout/drafts.ts'
import { DRAFT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { getStoreInfo } from '#app/modules/settings/settings.server.ts'
import { adminOrderPath } from '#app/utils/admin-paths.ts'
import { cartRecoveryPath } from '#app/utils/paths.ts'
import { AbandonedCheckouts, type AbandonedCheckout } from './marketing/abandoned-checkouts.tsx'
import { formatCount } from '#app/utils/count.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import type { Route } from './+types/marketing'

/**
 * /admin/marketing: what the shop gives the ad platforms. First section, "Catálogos": each catalog
 * feed's address, how to add it, how many products it lists and which it left out and why (the
 * feed's own function decides, so the page and the feed agree). Then "Pedidos sin terminar":
 * checkouts begun and left, to write to by WhatsApp (`abandoned-checkouts.tsx`).
 */

export const meta: Route.MetaFunction = () => [{ title: 'Marketing | Administración' }]

/** Left-out products listed per feed at most; the count says how many there are in all. */
export const LEFT_OUT_SHOWN = 200

const HIDDEN_REASONS: readonly string[] = [LEFT_OUT_REASONS.wholesale, LEFT_OUT_REASONS.hidden]

/** What the owner can fix (an image, a price) before what is left out on purpose (hidden from the shop). */
function leftOutOrder(a: LeftOutProduct, b: LeftOutProduct): number {
  const hidden = (product: LeftOutProduct) =>
    product.reasons.some((reason) => HIDDEN_REASONS.includes(reason))
  return (
    Number(hidden(a)) - Number(hidden(b)) || a.name.localeCompare(b.name, 'es') || a.sku.localeCompare(b.sku)
  )
}

/** How many products each reason left out: what can be fixed first, then the most common. */
function reasonCounts(leftOut: readonly LeftOutProduct[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const product of leftOut) {
    for (const reason of product.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  const hidden = (reason: string) => Number(HIDDEN_REASONS.includes(reason))
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort(
      (a, b) =>
        hidden(a.reason) - hidden(b.reason) || b.count - a.count || a.reason.localeCompare(b.reason, 'es'),
    )
}

const draftTime = new Intl.DateTimeFormat('es-CO', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'America/Bogota',
})

/** The checkouts not finished, each with its WhatsApp message carrying the link that refills the cart. */
async function abandonedCheckouts(
  { reads, env }: ReturnType<typeof servicesOf>,
  includeRecent: boolean,
  canOpenOrders: boolean,
): Promise<AbandonedCheckout[]> {
  const drafts = await listCheckoutDrafts(reads.db, { includeRecent })
  const { storeName } = await getStoreInfo(reads.db, env)
  return drafts.map((draft) => ({
    id: draft.id,
    name: draft.name,
    phone: draft.phone,
    email: draft.email,
    items: draft.items,
    total: draft.total,
    when: draftTime.format(draft.updatedAt),
    whatsapp: whatsappLink(
      `57${draft.phone}`,
      DRAFT_MESSAGES.whatsapp({
        name: draft.name.split(' ')[0] ?? '',
        shop: storeName,
        items: draft.items.map((item) => `${item.quantity} × ${item.name}`).join(', '),
        link: `${env.publicUrl}${cartRecoveryPath(draft.token)}`,
      }),
    ),
    linkOpened: draft.linkOpenedAt !== null,
    order: draft.order && {
      number: draft.order.number,
      total: draft.order.total,
      href: canOpenOrders ? adminOrderPath(draft.order.id) : null,
    },
  }))
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const services = servicesOf(context)
  const { reads, env } = services
  const admin = signedInAdminOf(context)
  const shop = feedShopOf(env)
  const feeds = await readCatalogFeeds({ reads, shop })
  const includeRecent = url.searchParams.has('recientes')
  return {
    abandoned: await abandonedCheckouts(services, includeRecent, adminCan(admin, 'orders')),
    includeRecent,
    // The sku links to the product's form only for whom may edit products.
    canEditProducts: adminCan(admin, 'catalog'),
    feeds: FEED_PLATFORMS.map((platform) => {
      const leftOut = [...feeds[platform].leftOut].sort(leftOutOrder)
      return {
        platform,
        url: `${shop.origin}${FEED_PATHS[platform]}`,
        count: feeds[platform].items.length,
        leftOutCount: leftOut.length,
        reasons: reasonCounts(leftOut),
        leftOut: leftOut.slice(0, LEFT_OUT_SHOWN),
      }
    }),
  }
}

type FeedSummary = Awaited<ReturnType<typeof loader>>['feeds'][number]

export const FEED_TEXTS: Record<FeedPlatform, { title: string; subtitle: string; howTo: string }> = {
  meta: {
    title: 'Meta',
    subtitle: 'Facebook, Instagram y WhatsApp',
    howTo:
      'En el Administrador de ventas de Meta (Commerce Manager) abre tu catálogo, entra a Orígenes de datos › Agregar artículos › Feed de datos, elige una carga programada, pega esta dirección y que se actualice cada día. Ese mismo catálogo es el que conectas a tu tienda de Facebook e Instagram y a WhatsApp Business.',
  },
  google: {
    title: 'Google Merchant Center',
    subtitle: 'Fichas gratuitas y anuncios de Shopping',
    howTo:
      'En Google Merchant Center entra a Productos › Fuentes de datos › Agregar fuente de productos, elige agregar productos desde un archivo con un vínculo (URL), pega esta dirección y programa la descarga diaria, para Colombia y en español.',
  },
}

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`

/** Copies the address; drawn once scripts run (before, the field's text is there to select and copy). */
function CopyButton({ value, label }: { value: string; label: string }) {
  const [ready, setReady] = useState(false)
  const [copied, setCopied] = useState(false)
  useEffect(() => setReady(true), [])
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  if (!ready) return null
  return (
    <button
      type="button"
      className={`${secondaryButtonClass} shrink-0`}
      aria-label={`Copiar la dirección del catálogo de ${label}`}
      data-testid="feed-copy"
      onClick={() => {
        navigator.clipboard
          .writeText(value)
          .then(() => {
            setCopied(true)
            toast.success('Dirección copiada.')
          })
          .catch(() => toast.error('No se pudo copiar: selecciona la dirección y cópiala.'))
      }}
    >
      {copied ? 'Copiada' : 'Copiar'}
    </button>
  )
}

function LeftOutList({ feed, canEditProducts }: { feed: FeedSummary; canEditProducts: boolean }) {
  if (feed.leftOutCount === 0) {
    return (
      <p className="text-sm text-green-800" data-testid="feed-left-out-none">
        Ningún producto quedó por fuera.
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium" data-testid="feed-left-out-count">
        {feed.leftOutCount === 1
          ? '1 producto quedó por fuera'
          : `${formatCount(feed.leftOutCount)} productos quedaron por fuera`}
      </p>
      <ul className="flex flex-wrap gap-2 text-xs" data-testid="feed-reasons">
        {feed.reasons.map(({ reason, count }) => (
          <li key={reason} className="rounded-full bg-amber-50 px-2.5 py-1 text-amber-900">
            {reason}: {formatCount(count)}
          </li>
        ))}
      </ul>
      <details className="rounded-lg border border-brand-100">
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-brand-700">
          Ver cuáles y por qué
        </summary>
        <ul className="divide-y divide-brand-100" data-testid="feed-left-out">
          {feed.leftOut.map((product) => (
            <li
              key={product.sku}
              data-testid="feed-left-out-item"
              data-sku={product.sku}
              className="flex flex-col gap-0.5 px-3 py-2 text-sm"
            >
              <span className="font-medium break-words">{product.name || 'Sin nombre'}</span>
              {canEditProducts ? (
                <Link
                  to={adminProductEditPath(product.sku)}
                  className="font-mono text-xs break-all text-brand-700 underline"
                  aria-label={`Editar ${product.name || product.sku}`}
                >
                  {product.sku}
                </Link>
              ) : (
                <span className="font-mono text-xs break-all text-gray-600">{product.sku}</span>
              )}
              <span className="text-gray-700" data-testid="feed-left-out-reasons">
                {product.reasons.join(' · ')}
              </span>
            </li>
          ))}
        </ul>
        {feed.leftOutCount > feed.leftOut.length ? (
          <p className="px-3 py-2 text-xs text-gray-600">
            Y {plural(feed.leftOutCount - feed.leftOut.length, 'producto más', 'productos más')}.
          </p>
        ) : null}
      </details>
    </div>
  )
}

function FeedCard({ feed, canEditProducts }: { feed: FeedSummary; canEditProducts: boolean }) {
  const texts = FEED_TEXTS[feed.platform]
  const fieldId = `feed-url-${feed.platform}`
  return (
    <article
      data-testid="feed"
      data-platform={feed.platform}
      aria-labelledby={`feed-title-${feed.platform}`}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
    >
      <div>
        <h3 id={`feed-title-${feed.platform}`} className="text-lg font-semibold">
          {texts.title}
        </h3>
        <p className="text-sm text-gray-600">{texts.subtitle}</p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={fieldId} className="text-sm font-medium text-gray-700">
          Dirección del catálogo
        </label>
        <div className="flex items-center gap-2">
          <input
            id={fieldId}
            type="text"
            readOnly
            value={feed.url}
            onFocus={(event) => event.currentTarget.select()}
            className={`${inputClass} min-w-0 font-mono text-sm`}
            data-testid="feed-url"
          />
          <CopyButton value={feed.url} label={texts.title} />
        </div>
      </div>
      <p className="text-sm text-gray-700">{texts.howTo}</p>
      <p className="text-sm">
        <span className="font-semibold" data-testid="feed-count">
          {plural(feed.count, 'producto', 'productos')}
        </span>{' '}
        en el catálogo ·{' '}
        <a href={feed.url} target="_blank" rel="noreferrer" className="text-brand-700 underline">
          Ver el archivo
        </a>
      </p>
      <LeftOutList feed={feed} canEditProducts={canEditProducts} />
    </article>
  )
}

export default function Marketing({ loaderData }: Route.ComponentProps) {
  const { feeds, canEditProducts, abandoned, includeRecent } = loaderData
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Marketing</h1>
      <section aria-labelledby="feeds-title" className="flex flex-col gap-3" data-testid="marketing-feeds">
        <div>
          <h2 id="feeds-title" className="text-xl font-semibold">
            Catálogos
          </h2>
          <p className="text-sm text-gray-600">
            Meta y Google leen estas direcciones solas: los productos que se ven en la tienda, con su precio
            (y el rebajado por descuentos y promociones), sus existencias y su imagen. Lo que cambies en el
            inventario se ve en su siguiente lectura.
          </p>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          {feeds.map((feed) => (
            <FeedCard key={feed.platform} feed={feed} canEditProducts={canEditProducts} />
          ))}
        </div>
      </section>
      <AbandonedCheckouts
        checkouts={abandoned}
        includeRecent={includeRecent}
        abandonedAfterMinutes={ABANDONED_AFTER_MINUTES}
        keptDays={DRAFT_KEPT_DAYS}
      />
    </div>
  )
}
