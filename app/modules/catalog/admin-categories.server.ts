import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import { joinedImage, type ImageSource, type MediaReads } from '#app/modules/media/image-source.ts'
import {
  deleteStoredFiles,
  storedMediaColumns,
  storedPaths,
  type StoredMedia,
  type Upload,
} from '#app/modules/media/media.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { withStoredFiles, type StoredFilesOptions } from '#app/modules/media/stored-files.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { categories, media, productCategories } from './schema.ts'
import {
  CATEGORY_MESSAGES,
  CategoryNameSchema,
  seoColumns,
  SeoFieldsSchema,
  type SeoFields,
} from './validators.ts'
import { slugOf } from '#app/utils/slug.ts'
import { hasNul } from '#app/utils/text.ts'
import { formatCount } from '#app/utils/count.ts'

/** A category's one picture: an image, never a video. */
const CATEGORY_FILES: StoredFilesOptions = {
  folder: 'categories',
  accept: ([image]) => {
    if (image && image.kind !== 'image') throw new Refusal('La imagen de la categoría debe ser una imagen.')
  },
}

/** Without a new image nothing is stored and storage is never called. */
const imageUploads = (image: Upload | null | undefined) => (image ? [image] : [])

/** `seo`: the form's SEO fields as posted (`seoFieldValues`); absent, they are left as they are. */
export type CategoryInput = { name: unknown; image?: Upload | null; seo?: Record<string, unknown> }

function parseSeo(seo: Record<string, unknown> | undefined): SeoFields {
  const parsed = SeoFieldsSchema.safeParse(seo ?? {})
  if (!parsed.success) throw new Refusal(parsed.error.issues[0]!.message)
  return parsed.data
}

function parseName(name: unknown): string {
  const parsed = CategoryNameSchema.safeParse(typeof name === 'string' ? name : '')
  if (!parsed.success) {
    const message = parsed.error.issues[0]!.message
    throw new Refusal(message, { standsAlone: message === CATEGORY_MESSAGES.nameRequired })
  }
  return parsed.data
}

function mediaRow(stored: StoredMedia) {
  return { productSku: null, ...storedMediaColumns(stored) }
}

/**
 * Inserts with a spec §3 id, "Categoria_" and a timestamp (ms), bumped past any id taken (also by
 * a concurrent create: the insert itself claims the id).
 */
async function insertWithFreshId(
  tx: DbOrTx,
  now: number,
  values: {
    name: string
    imageMediaId: number | null
    slug?: string
    seoTitle?: string | null
    seoDescription?: string | null
  },
): Promise<string> {
  for (let stamp = now; ; stamp++) {
    const [row] = await tx
      .insert(categories)
      .values({ id: `Categoria_${stamp}`, ...values })
      .onConflictDoNothing({ target: categories.id })
      .returning({ id: categories.id })
    if (row) return row.id
  }
}

/** Spec §5: the trimmed name is required; an empty name creates nothing. Image optional. */
export async function createCategory(
  db: Db,
  storage: MediaStorage,
  input: CategoryInput,
  now = Date.now(),
): Promise<{ id: string }> {
  const name = parseName(input.name)
  const seo = seoColumns(parseSeo(input.seo), name)
  return withStoredFiles(storage, imageUploads(input.image), CATEGORY_FILES, ([stored]) =>
    db.transaction(async (tx) => {
      let imageMediaId: number | null = null
      if (stored) {
        const [row] = await tx.insert(media).values(mediaRow(stored)).returning({ id: media.id })
        imageMediaId = row!.id
      }
      return { id: await insertWithFreshId(tx, now, { name, imageMediaId, ...seo }) }
    }),
  )
}

/** Renames a category and, when a new image is given, replaces its image (old files go after commit). */
export async function updateCategory(
  db: Db,
  storage: MediaStorage,
  id: string,
  input: CategoryInput,
): Promise<void> {
  const name = parseName(input.name)
  const seo = seoColumns(parseSeo(input.seo), name)
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  const [existing] = hasNul(id) ? [] : await db.select().from(categories).where(eq(categories.id, id))
  if (!existing) throw new Refusal(CATEGORY_MESSAGES.notFound, { standsAlone: true, status: 404 })
  let replaced: { path: string; variants: StoredMedia['variants'] } | undefined
  await withStoredFiles(storage, imageUploads(input.image), CATEGORY_FILES, ([stored]) =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(categories).where(eq(categories.id, id)).for('update')
      if (!current) throw new Refusal(CATEGORY_MESSAGES.notFound, { standsAlone: true, status: 404 })
      let imageMediaId = current.imageMediaId
      if (stored) {
        const [row] = await tx.insert(media).values(mediaRow(stored)).returning({ id: media.id })
        imageMediaId = row!.id
        if (current.imageMediaId !== null) {
          const [old] = await tx.delete(media).where(eq(media.id, current.imageMediaId)).returning()
          replaced = old
        }
      }
      await tx
        .update(categories)
        .set({ name, imageMediaId, ...seo })
        .where(eq(categories.id, id))
    }),
  )
  if (replaced) await deleteStoredFiles(storage, storedPaths(replaced))
}

/** What deleting a category answers (the confirmation asked first is the list page's own text). */
export const CATEGORY_DELETE_MESSAGES = {
  deleted: (name: string) => `Categoría «${name}» eliminada con éxito.`,
  hasProducts: (name: string, products: number) =>
    products === 1
      ? `No se puede eliminar la categoría «${name}»: tiene 1 producto. Muévelo primero a otra categoría (o quítalo de esta) y vuelve a intentarlo.`
      : `No se puede eliminar la categoría «${name}»: tiene ${formatCount(products)} productos. Muévelos primero a otra categoría (o quítalos de esta) y vuelve a intentarlo.`,
  failed: 'No se pudo eliminar la categoría. Intenta de nuevo.',
} as const

/**
 * Deletes a category that no product is in, with its image: the category and its media row in one
 * transaction, then the image's files from storage after the commit (as `deleteProduct` does). The
 * files go with it: a category's image is a media row of its own (no product, pointed at by this
 * category alone), nothing else shows it, and a category has no history to keep (ADR 0003 keeps
 * products for their ledger and orders; a category with products is refused instead).
 *
 * A category with products is refused and nothing is written: each product must be moved first, so
 * none silently loses a category (the link's foreign key would cascade). The category row is locked
 * before the products are counted: a product save adding it takes a key-share lock on it, so that
 * save either committed before the count sees it or waits, and then fails on the missing category.
 */
export async function deleteCategory(db: Db, storage: MediaStorage, id: string): Promise<{ name: string }> {
  const notFound = () => new Refusal(CATEGORY_MESSAGES.notFound, { standsAlone: true, status: 404 })
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(id)) throw notFound()
  const { name, image } = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(categories).where(eq(categories.id, id)).for('update')
    if (!current) throw notFound()
    const [linked] = await tx
      .select({ products: count() })
      .from(productCategories)
      .where(eq(productCategories.categoryId, id))
    const products = linked?.products ?? 0
    if (products > 0) {
      throw new Refusal(CATEGORY_DELETE_MESSAGES.hasProducts(current.name, products), {
        standsAlone: true,
        status: 409,
      })
    }
    await tx.delete(categories).where(eq(categories.id, id))
    if (current.imageMediaId === null) return { name: current.name, image: undefined }
    const [removed] = await tx
      .delete(media)
      .where(and(eq(media.id, current.imageMediaId), isNull(media.productSku)))
      .returning()
    return { name: current.name, image: removed }
  })
  if (image) await deleteStoredFiles(storage, storedPaths(image))
  return { name }
}

export type AdminCategory = {
  id: string
  name: string
  /** "SEO": the slug of its URL now (saved, or made from the name), and what the owner wrote. */
  slug: string
  seoTitle: string | null
  seoDescription: string | null
  createdAt: string
  image: ImageSource | null
  /** How many products are in it: a category can be deleted only at 0. */
  productCount: number
}

/** Every category, oldest first (the order the original's list had), with its image. */
function adminCategoryQuery(db: DbOrTx) {
  return db
    .select({
      id: categories.id,
      name: categories.name,
      slug: categories.slug,
      seoTitle: categories.seoTitle,
      seoDescription: categories.seoDescription,
      createdAt: categories.createdAt,
      mediaPath: media.path,
      mediaKind: media.kind,
      mediaWidth: media.width,
      mediaHeight: media.height,
      mediaVariants: media.variants,
      productCount:
        sql<number>`(select count(*) from ${productCategories} where ${productCategories.categoryId} = ${categories.id})`.mapWith(
          Number,
        ),
    })
    .from(categories)
    .leftJoin(media, eq(media.id, categories.imageMediaId))
}

type AdminCategoryRow = Awaited<ReturnType<typeof adminCategoryQuery>>[number]

function toAdminCategory(row: AdminCategoryRow, publicBase: string): AdminCategory {
  return {
    id: row.id,
    name: row.name,
    slug: slugOf(row),
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    createdAt: row.createdAt.toISOString(),
    image: joinedImage(row, row.name, publicBase),
    productCount: row.productCount,
  }
}

export async function listAdminCategories({ db, publicBase }: MediaReads): Promise<AdminCategory[]> {
  const rows = await adminCategoryQuery(db).orderBy(asc(categories.createdAt), asc(categories.id))
  return rows.map((row) => toAdminCategory(row, publicBase))
}

export async function getAdminCategory(
  { db, publicBase }: MediaReads,
  id: string,
): Promise<AdminCategory | null> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(id)) return null
  const [row] = await adminCategoryQuery(db).where(eq(categories.id, id))
  return row ? toAdminCategory(row, publicBase) : null
}
