import { useEffect, useRef, useState } from 'react'
import { SEO_MAX, SEO_RECOMMENDED } from '#app/modules/catalog/validators.ts'
import { absoluteUrl, pageTitle } from '#app/utils/seo.ts'
import { categoryDescription, productDescription } from '#app/utils/seo-defaults.ts'
import { slugify } from '#app/utils/slug.ts'
import { inputClass } from './form-message.tsx'

/** The shop as a search result and a link card show it: its name and public origin. */
export type SeoShop = { storeName: string; origin: string }

export type SeoFieldValues = { slug: string; seoTitle: string; seoDescription: string }

/**
 * Google cuts a result's title at about 600 px (some 60 characters) and its description at about
 * 155: the preview cuts the same way, at a word, with "…".
 */
export function truncateLikeGoogle(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max + 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s.,;:–-]+$/, '')} …`
}

type FormText = SeoFieldValues & { name: string; description: string }

/**
 * What the form's fields hold now, read from the form on every input (its SEO fields are plain,
 * uncontrolled inputs): the previews and the defaults follow the name and description as typed.
 */
function useFormText(fieldset: React.RefObject<HTMLFieldSetElement | null>, initial: FormText) {
  const [text, setText] = useState(initial)
  useEffect(() => {
    const form = fieldset.current?.form
    if (!form) return
    const value = (name: string) => {
      const field = form.elements.namedItem(name)
      return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : ''
    }
    const read = () =>
      setText({
        name: value('name'),
        description: value('description'),
        seoTitle: value('seoTitle'),
        seoDescription: value('seoDescription'),
        slug: value('slug'),
      })
    read()
    form.addEventListener('input', read)
    return () => form.removeEventListener('input', read)
  }, [fieldset])
  return text
}

function Counter({ id, length, recommended }: { id: string; length: number; recommended: number }) {
  const over = length > recommended
  return (
    <p id={id} className={`mt-1 text-xs ${over ? 'text-amber-800' : 'text-gray-600'}`} data-testid={id}>
      {`${length} de ~${recommended} caracteres recomendados`}
      {over ? ': Google lo mostrará cortado.' : '.'}
    </p>
  )
}

/**
 * The "SEO" part of the product and category forms: the search result's title and description
 * (empty takes the default, shown as the placeholder), with live counters against Google's
 * lengths; the URL's readable part (normalised when the field is left: lower case, no accents,
 * hyphens); and previews of the Google result and of the WhatsApp link card, updated as the owner
 * types (the name and description too). Plain named inputs: the form posts them with or without
 * JavaScript.
 */
export function SeoFields({
  kind,
  keySegment,
  initial,
  initialText,
  shop,
  image,
}: {
  kind: 'product' | 'category'
  /** The SKU or id in the URL; null for a product not created yet. */
  keySegment: string | null
  initial: SeoFieldValues
  /** The name and description the form starts with. */
  initialText: { name: string; description: string }
  shop: SeoShop
  /** The link card's picture: the main image, or the shop's logo. */
  image: string
}) {
  const fieldset = useRef<HTMLFieldSetElement>(null)
  const { name, description, seoTitle, seoDescription, slug } = useFormText(fieldset, {
    ...initialText,
    ...initial,
  })

  const shownName = name.trim() || (kind === 'product' ? 'Nombre del producto' : 'Nombre de la categoría')
  const defaultTitle = pageTitle(shownName, shop.storeName)
  const defaultDescription =
    kind === 'product' ? productDescription(description) : categoryDescription(shownName)
  const title = seoTitle.trim() || defaultTitle
  const metaDescription = seoDescription.trim() || defaultDescription
  const cardTitle = seoTitle.trim() || shownName
  const shownSlug = slugify(slug) || slugify(name)
  const segment = kind === 'product' ? 'producto' : 'categoria'
  const host = hostOf(shop.origin)
  const id = (field: string) => `${kind}-${field}`

  return (
    <fieldset ref={fieldset} className="flex min-w-0 flex-col gap-4" data-testid="seo-fields">
      <legend className="mb-2 text-base font-semibold">SEO: buscadores y enlaces compartidos</legend>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-4">
          <div>
            <label htmlFor={id('seo-title')} className="mb-1 block text-sm font-medium text-gray-700">
              Título para buscadores
            </label>
            <input
              id={id('seo-title')}
              name="seoTitle"
              type="text"
              maxLength={SEO_MAX.title}
              defaultValue={initial.seoTitle}
              placeholder={defaultTitle}
              aria-describedby={id('seo-title-count')}
              className={inputClass}
            />
            <Counter id={id('seo-title-count')} length={title.length} recommended={SEO_RECOMMENDED.title} />
          </div>
          <div>
            <label htmlFor={id('seo-description')} className="mb-1 block text-sm font-medium text-gray-700">
              Resumen para buscadores
            </label>
            <textarea
              id={id('seo-description')}
              name="seoDescription"
              rows={3}
              maxLength={SEO_MAX.description}
              defaultValue={initial.seoDescription}
              placeholder={defaultDescription}
              aria-describedby={id('seo-description-count')}
              className={inputClass}
            />
            <Counter
              id={id('seo-description-count')}
              length={metaDescription.length}
              recommended={SEO_RECOMMENDED.description}
            />
          </div>
          <div>
            <label htmlFor={id('slug')} className="mb-1 block text-sm font-medium text-gray-700">
              URL
            </label>
            <input
              id={id('slug')}
              name="slug"
              type="text"
              maxLength={SEO_MAX.slug}
              defaultValue={initial.slug}
              placeholder={slugify(shownName)}
              onBlur={(event) => {
                // Shown as it will be saved; the form hears it like any other input.
                const field = event.currentTarget
                const normal = slugify(field.value)
                if (normal === field.value) return
                field.value = normal
                field.dispatchEvent(new Event('input', { bubbles: true }))
              }}
              aria-describedby={id('slug-hint')}
              spellCheck={false}
              autoCapitalize="none"
              className={`${inputClass} font-mono text-sm`}
            />
            <p id={id('slug-hint')} className="mt-1 text-xs text-gray-600">
              En minúsculas, sin tildes y con guiones; vacía, se hace del nombre. Si la cambias, los enlaces
              viejos llevan a la nueva.
            </p>
            <p className="mt-1 font-mono text-xs break-all text-gray-700" data-testid="seo-url">
              {`${shop.origin}/${segment}/${keySegment ?? (kind === 'product' ? 'SKU' : 'id')}`}
              {shownSlug ? <strong>{`/${shownSlug}`}</strong> : null}
            </p>
          </div>
        </div>

        <div className="flex min-w-0 flex-col gap-4" aria-label="Vistas previas">
          <div>
            <p className="mb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">Google</p>
            <div
              className="rounded-lg border border-gray-200 p-3 font-[arial,sans-serif]"
              data-testid="seo-preview-google"
            >
              <p className="truncate text-sm text-gray-900">{shop.storeName}</p>
              <p className="truncate text-xs text-gray-600" data-testid="seo-preview-url">
                {[
                  host,
                  segment,
                  keySegment ?? (kind === 'product' ? 'SKU' : 'id'),
                  ...(shownSlug ? [shownSlug] : []),
                ].join(' › ')}
              </p>
              <p
                className="mt-1 text-lg leading-snug break-words text-[#1a0dab]"
                data-testid="seo-preview-title"
              >
                {truncateLikeGoogle(title, SEO_RECOMMENDED.title)}
              </p>
              <p className="mt-1 text-sm break-words text-gray-700" data-testid="seo-preview-description">
                {truncateLikeGoogle(metaDescription, SEO_RECOMMENDED.description)}
              </p>
            </div>
          </div>
          <div>
            <p className="mb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">WhatsApp</p>
            <div className="max-w-sm rounded-lg bg-[#d9fdd3] p-1.5" data-testid="seo-preview-whatsapp">
              <div className="overflow-hidden rounded-md bg-[#f0f2f5]">
                <img
                  src={absoluteUrl(image, shop.origin)}
                  alt=""
                  className="aspect-[1.91/1] w-full bg-white object-cover"
                  loading="lazy"
                  // A picture that does not load leaves the card without one, as WhatsApp shows it.
                  onError={(event) => {
                    event.currentTarget.hidden = true
                  }}
                />
                <div className="px-2.5 py-2">
                  <p
                    className="line-clamp-2 text-sm font-semibold break-words text-gray-900"
                    data-testid="seo-preview-card-title"
                  >
                    {cardTitle}
                  </p>
                  <p
                    className="line-clamp-2 text-xs break-words text-gray-700"
                    data-testid="seo-preview-card-description"
                  >
                    {metaDescription}
                  </p>
                  <p className="mt-0.5 text-xs text-gray-700">{host}</p>
                </div>
              </div>
            </div>
          </div>
        </div>
      </div>
    </fieldset>
  )
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host
  } catch {
    return origin
  }
}
