import { and, eq, inArray } from 'drizzle-orm'
import pLimit from 'p-limit'
import type { Db, Tx } from '#app/db/client.server.ts'
import {
  addImportedAnalytics,
  overflowingMonths,
  type OverflowingMonth,
} from '#app/modules/analytics/import.server.ts'
import { insertImportedCatalogue, type ImportedMedia } from '#app/modules/catalog/import.server.ts'
import { PRODUCT_MEDIA_FOLDER } from '#app/modules/catalog/product-media.server.ts'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { replayHistories } from '#app/modules/inventory/stock.server.ts'
import {
  checkUpload,
  deleteStoredFiles,
  storedPaths,
  storeUploads,
  type StoredMedia,
} from '#app/modules/media/media.server.ts'
import { addressWithoutCredentials, type RemoteFiles } from '#app/modules/media/remote-file.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import {
  existingOrderIds,
  holdsUnits,
  insertImportedOrders,
  type ImportedOrder,
} from '#app/modules/order/import.server.ts'
import {
  IMPORT_AUTHOR,
  planExport,
  type ImportPlan,
  type ImportProgress,
  type Issue,
  type IssueKind,
  type PlannedProduct,
  type RecordKind,
} from './plan.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { importRecords } from './schema.ts'
import { quoted } from './validators.ts'

export type ImportCounts = {
  categories: number
  products: number
  movements: number
  orders: number
  clickMonths: number
  pageViewMonths: number
}

export type ImportReport = {
  dryRun: boolean
  /** What this run wrote (or, in a dry run, would write). */
  imported: ImportCounts & {
    /**
     * The product files the export names: a run downloads each, a dry run only counts them (it
     * downloads nothing, so it cannot tell which would come).
     */
    mediaFiles: number
    /** Files brought into storage. */
    mediaStored: number
    /**
     * Files that could not be brought: left out of the shop and listed on the product's edit page
     * for the owner to upload again.
     */
    mediaMissing: number
    /** Orders still to ship that hold their units now. */
    ordersHoldingUnits: number
  }
  /**
   * Records an earlier run brought already, the same as they are now: left as they are. One the
   * export tells differently is refused instead (it is not updated).
   */
  alreadyImported: ImportCounts
  refused: Issue[]
  warnings: Issue[]
}

export type ImportDeps = {
  db: Db
  storage: MediaStorage
  remote: RemoteFiles
  /** Downloads at a time. */
  concurrency?: number
}

/** A failure that stops the whole import, already worded in Spanish for the shop's owner. */
export class ImportStopped extends Error {
  override name = 'ImportStopped'
}

/** Rolls a dry run's transaction back once everything has been written and checked. */
class DryRunRollback extends Error {}

/**
 * Brings the original shop's export into Vitrina (see `validators.ts` for its shape): categories,
 * products with their media, ledgers (the stock, units in and out, average cost and locations they
 * imply), orders with their states, and monthly analytics. Every record is checked on its own and
 * refused with a Spanish reason when it cannot be brought over whole; what passes is written in one
 * transaction, so a failure leaves nothing behind (the files stored for it are deleted again). What
 * was brought is remembered by its original key: a second run of the same export writes nothing. A
 * dry run checks and writes everything but the orders (whose numbers a rollback would not give
 * back) in a transaction it then rolls back, without downloading.
 */
export async function importOriginalShop(
  deps: ImportDeps,
  source: unknown,
  options: { dryRun?: boolean; now?: Date; progress?: ImportProgress } = {},
): Promise<ImportReport> {
  const dryRun = options.dryRun ?? false
  // `source` may also be the export's documents as they stream (`ExportDocuments`).
  const plan = await planExport(source, options.now ?? new Date(), options.progress)
  options.progress?.('Comparando con lo que Vitrina ya tiene')
  const fresh = await freshPart(deps.db, plan)
  await refuseOverflowingMonths(deps.db, fresh.plan)
  const report: ImportReport = {
    dryRun,
    imported: {
      categories: fresh.plan.categories.length,
      products: fresh.plan.products.length,
      movements: fresh.plan.products.reduce((sum, product) => sum + product.sourceMovements, 0),
      orders: fresh.plan.orders.length,
      clickMonths: fresh.plan.clicks.length,
      pageViewMonths: fresh.plan.pageViews.length,
      mediaFiles: fresh.plan.products.reduce((sum, product) => sum + product.media.length, 0),
      mediaStored: 0,
      mediaMissing: 0,
      ordersHoldingUnits: 0,
    },
    alreadyImported: fresh.alreadyImported,
    refused: plan.refused,
    warnings: plan.warnings,
  }
  if (!dryRun) options.progress?.('Descargando los archivos de los productos')
  const media = dryRun
    ? notDownloaded(fresh.plan.products)
    : await bringMedia(deps, fresh.plan.products, plan)
  if (!dryRun) {
    for (const files of media.values()) {
      for (const file of files) {
        if ('stored' in file) report.imported.mediaStored++
        else report.imported.mediaMissing++
      }
    }
  }
  const written = media.size
    ? [...media.values()].flat().flatMap((file) => ('stored' in file ? storedPaths(file.stored) : []))
    : []
  try {
    await deps.db.transaction(async (tx) => {
      const unheld = await write(tx, fresh.plan, media, dryRun, options.progress)
      report.imported.ordersHoldingUnits = fresh.plan.orders.filter(holdsUnits).length - unheld.length
      for (const id of unheld) {
        plan.warnings.push({
          kind: 'pedido',
          key: id,
          reason: 'Está por enviar, pero no hay unidades disponibles para apartarle: no se apartaron.',
        })
      }
      if (dryRun) throw new DryRunRollback()
    })
  } catch (error) {
    await deleteStoredFiles(deps.storage, written)
    if (!(error instanceof DryRunRollback)) throw error
  }
  return report
}

async function write(
  tx: Tx,
  plan: ImportPlan,
  media: Map<string, ImportedMedia[]>,
  dryRun: boolean,
  progress?: ImportProgress,
): Promise<string[]> {
  progress?.('Guardando categorías y productos')
  await insertImportedCatalogue(tx, {
    categories: plan.categories,
    products: plan.products.map((product) => ({ ...product, media: media.get(product.sku) ?? [] })),
  })
  progress?.('Guardando movimientos de inventario')
  await replayHistories(
    tx,
    plan.products.map((product) => ({
      sku: product.sku,
      movements: product.history,
      openingCost: product.openingCost,
    })),
  )
  progress?.('Guardando pedidos')
  // A dry run writes no orders: even rolled back, they would use up order numbers.
  const unheld = await insertImportedOrders(tx, plan.orders, IMPORT_AUTHOR, { holdOnly: dryRun })
  progress?.('Guardando clics y visitas')
  await addImportedAnalytics(tx, {
    clicks: plan.clicks.flatMap((month) => month.rows),
    pageViews: plan.pageViews.flatMap((month) => month.rows),
  })
  const record = (kind: RecordKind, key: string) => ({
    kind,
    key,
    contentHash: plan.hashes[kind].get(key) ?? null,
  })
  const records = [
    ...plan.categories.map((category) => record('category', category.id)),
    ...plan.products.map((product) => record('product', product.sku)),
    ...plan.orders.map((order) => record('order', order.id)),
    ...plan.clicks.map(({ month }) => record('clicks', month)),
    ...plan.pageViews.map(({ month }) => record('page-views', month)),
  ]
  for (let i = 0; i < records.length; i += 1000) {
    await tx.insert(importRecords).values(records.slice(i, i + 1000))
  }
  return unheld
}

/** What the report calls each kind of record. */
const ISSUE_KIND: Record<RecordKind, IssueKind> = {
  category: 'categoría',
  product: 'producto',
  order: 'pedido',
  clicks: 'clics',
  'page-views': 'visitas',
}

const MEASURE_WORDS = { clicks: 'clics', visits: 'visitas', seconds: 'segundos' } as const

/**
 * Takes out of the plan, refused in its report, every month whose counts would pass what their
 * columns hold once added to what Vitrina already counted for that month (the analytics module
 * finds them): one such row would otherwise fail the whole import's transaction.
 */
async function refuseOverflowingMonths(db: Db, plan: ImportPlan): Promise<void> {
  const overflowing = await overflowingMonths(db, { clicks: plan.clicks, pageViews: plan.pageViews })
  if (!overflowing.length) return
  const months = (kind: OverflowingMonth['kind']) =>
    new Set(overflowing.filter((over) => over.kind === kind).map((over) => over.month))
  const clickMonths = months('clicks')
  const viewMonths = months('pageViews')
  plan.clicks = plan.clicks.filter((month) => !clickMonths.has(month.month))
  plan.pageViews = plan.pageViews.filter((month) => !viewMonths.has(month.month))
  for (const over of overflowing) {
    const what = MEASURE_WORDS[over.measure]
    const theseOnes = over.measure === 'visits' ? 'las' : 'los'
    plan.refused.push({
      kind: over.kind === 'clicks' ? 'clics' : 'visitas',
      key: over.kind === 'clicks' ? `clickEvents/${over.month}` : `pageViews/${over.month}`,
      reason:
        `${over.kind === 'clicks' ? 'Elemento' : 'Página'} ${quoted(over.name)}: Vitrina ya cuenta ${over.counted} ${what} ` +
        `en este mes, y con ${theseOnes} ${over.adding} de la exportación pasaría de ${over.limit}, lo que puede guardar. ` +
        'No se importó el mes.',
    })
  }
}

/**
 * The part of the plan not brought yet. A record an earlier run imported is counted and left
 * alone when the export still says the same about it, and refused when it says otherwise (it is
 * not updated: Vitrina has been working with it since); one whose key Vitrina already uses for
 * something else is refused (a category already here is kept, and products may still name it).
 */
async function freshPart(db: Db, plan: ImportPlan) {
  const changed = new Map<RecordKind, Set<string>>(
    (['category', 'product', 'order', 'clicks', 'page-views'] as const).map((kind) => [kind, new Set()]),
  )
  /** The records an earlier run brought unchanged; the changed ones are refused on the way. */
  const recorded = async (kind: RecordKind, keys: string[]) => {
    const done = new Set<string>()
    for (let i = 0; i < keys.length; i += 1000) {
      const rows = await db
        .select({ key: importRecords.key, contentHash: importRecords.contentHash })
        .from(importRecords)
        .where(and(eq(importRecords.kind, kind), inArray(importRecords.key, keys.slice(i, i + 1000))))
      for (const row of rows) {
        // Records brought before digests were kept cannot be compared: taken as unchanged.
        if (row.contentHash === null || row.contentHash === plan.hashes[kind].get(row.key)) {
          done.add(row.key)
        } else {
          plan.refused.push({
            kind: ISSUE_KIND[kind],
            key:
              kind === 'clicks'
                ? `clickEvents/${row.key}`
                : kind === 'page-views'
                  ? `pageViews/${row.key}`
                  : row.key,
            reason:
              'Cambió desde la importación anterior: no se actualizó (Vitrina conserva lo que se importó entonces).',
          })
          changed.get(kind)!.add(row.key)
        }
      }
    }
    return done
  }
  const categoryIds = plan.categories.map((category) => category.id)
  const skus = plan.products.map((product) => product.sku)
  const orderIds = plan.orders.map((order) => order.id)
  // One kind after another, so the report lists the changed records in a fixed order.
  const doneCategories = await recorded('category', categoryIds)
  const doneProducts = await recorded('product', skus)
  const doneOrders = await recorded('order', orderIds)
  const doneClicks = await recorded(
    'clicks',
    plan.clicks.map((month) => month.month),
  )
  const doneViews = await recorded(
    'page-views',
    plan.pageViews.map((month) => month.month),
  )
  const existingCategories = new Set(
    categoryIds.length
      ? (
          await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, categoryIds))
        ).map((row) => row.id)
      : [],
  )
  const existingProducts = new Set(
    skus.length
      ? (await db.select({ sku: products.sku }).from(products).where(inArray(products.sku, skus))).map(
          (row) => row.sku,
        )
      : [],
  )
  const existingOrders = await existingOrderIds(db, orderIds)

  const fresh: ImportPlan = { ...plan, categories: [], products: [], orders: [], clicks: [], pageViews: [] }
  const alreadyImported: ImportCounts = {
    categories: 0,
    products: 0,
    movements: 0,
    orders: 0,
    clickMonths: 0,
    pageViewMonths: 0,
  }
  for (const category of plan.categories) {
    if (doneCategories.has(category.id)) alreadyImported.categories++
    else if (changed.get('category')!.has(category.id)) continue
    else if (existingCategories.has(category.id)) {
      plan.refused.push({
        kind: 'categoría',
        key: category.id,
        reason: 'Ya hay una categoría con este id en Vitrina: se deja la que hay.',
      })
    } else fresh.categories.push(category)
  }
  const knownCategories = new Set([...existingCategories, ...fresh.categories.map((category) => category.id)])
  for (const product of plan.products) {
    if (doneProducts.has(product.sku)) {
      alreadyImported.products++
      alreadyImported.movements += product.sourceMovements
      continue
    }
    if (changed.get('product')!.has(product.sku)) continue
    if (existingProducts.has(product.sku)) {
      plan.refused.push({
        kind: 'producto',
        key: product.sku,
        reason: 'Ya hay un producto con este SKU en Vitrina que no vino de la tienda original.',
      })
      continue
    }
    const unknown = product.categoryIds.filter((id) => !knownCategories.has(id))
    if (unknown.length) {
      plan.warnings.push({
        kind: 'producto',
        key: product.sku,
        reason: `Sus categorías ${unknown.join(', ')} no existen: se importó sin ellas.`,
      })
    }
    fresh.products.push({
      ...product,
      categoryIds: product.categoryIds.filter((id) => knownCategories.has(id)),
    })
  }
  const pendingOrders: ImportedOrder[] = []
  for (const order of plan.orders) {
    if (doneOrders.has(order.id)) alreadyImported.orders++
    else if (changed.get('order')!.has(order.id)) continue
    else if (existingOrders.has(order.id)) {
      plan.refused.push({ kind: 'pedido', key: order.id, reason: 'Ya hay un pedido con este id en Vitrina.' })
    } else pendingOrders.push(order)
  }
  const comingSkus = new Set(fresh.products.map((product) => product.sku))
  const orderedSkus = [...new Set(pendingOrders.flatMap((order) => order.items.map((item) => item.sku)))]
  const presentSkus = await productsPresent(
    db,
    orderedSkus.filter((sku) => !comingSkus.has(sku)),
  )
  for (const order of pendingOrders) {
    const missing = [
      ...new Set(
        order.items.map((item) => item.sku).filter((sku) => !comingSkus.has(sku) && !presentSkus.has(sku)),
      ),
    ]
    if (!missing.length) fresh.orders.push(order)
    else if (holdsUnits(order)) {
      // Left out of import_records, so the run that brings its product brings it too.
      plan.refused.push({
        kind: 'pedido',
        key: order.id,
        reason:
          missing.length === 1
            ? `Está por enviar y su producto ${missing[0]} no se importó; se importará con él.`
            : `Está por enviar y sus productos ${missing.join(', ')} no se importaron; se importará con ellos.`,
      })
    } else {
      plan.warnings.push({
        kind: 'pedido',
        key: order.id,
        reason: `${missing.length === 1 ? `Su producto ${missing[0]} no está` : `Sus productos ${missing.join(', ')} no están`} en Vitrina: se importó con el nombre y el precio que guardaba.`,
      })
      fresh.orders.push(order)
    }
  }
  for (const month of plan.clicks) {
    if (doneClicks.has(month.month)) alreadyImported.clickMonths++
    else if (!changed.get('clicks')!.has(month.month)) fresh.clicks.push(month)
  }
  for (const month of plan.pageViews) {
    if (doneViews.has(month.month)) alreadyImported.pageViewMonths++
    else if (!changed.get('page-views')!.has(month.month)) fresh.pageViews.push(month)
  }
  return { plan: fresh, alreadyImported }
}

/** Which of these SKUs Vitrina has, asked in slices so a large shop stays under the parameter limit. */
async function productsPresent(db: Db, skus: string[]): Promise<Set<string>> {
  const present = new Set<string>()
  for (let i = 0; i < skus.length; i += 1000) {
    const rows = await db
      .select({ sku: products.sku })
      .from(products)
      .where(inArray(products.sku, skus.slice(i, i + 1000)))
    for (const row of rows) present.add(row.sku)
  }
  return present
}

/** A write to the media storage failed (the original error is its cause). */
class StorageFailure extends Error {
  constructor(cause: unknown) {
    super('storage write failed', { cause })
  }
}

type PlannedFile = PlannedProduct['media'][number]

/** What became of a file that could not be brought, as the report tells it. */
export const MISSING_FILE_OUTCOME =
  'no se muestra en la tienda; queda en la lista de «Editar producto» para subirlo de nuevo.'

/** A file that did not come (why, in Spanish; null in a dry run, which tries none). */
function notBrought(file: PlannedFile, reason: string | null): ImportedMedia {
  return {
    missing: { url: addressWithoutCredentials(file.url), kind: file.kind, reason },
    main: file.main,
  }
}

/**
 * A dry run's files: none downloaded, so the rolled-back transaction writes each as missing (its
 * rows are checked all the same) and the report counts them only as files to download.
 */
function notDownloaded(planned: PlannedProduct[]): Map<string, ImportedMedia[]> {
  return new Map(planned.map((product) => [product.sku, product.media.map((file) => notBrought(file, null))]))
}

/**
 * Downloads every product file into storage (images become WebP variants, as an upload does). A
 * file that cannot be had (an internal address, refused before any connection, included), is not
 * a real image or video or cannot be processed is left out of the shop: the report says why (in
 * the products' order) and the product's edit page lists it for the owner to upload again. A
 * storage failure stops the import, and the files stored so far are deleted.
 */
async function bringMedia(
  deps: ImportDeps,
  planned: PlannedProduct[],
  plan: ImportPlan,
): Promise<Map<string, ImportedMedia[]>> {
  const limit = pLimit(deps.concurrency ?? 4)
  const stored: StoredMedia[] = []
  // Writes that fail are told apart from a file that fails processing: only they stop the import.
  const writer: MediaStorage = {
    async put(p, body, type) {
      try {
        await deps.storage.put(p, body, type)
      } catch (error) {
        throw new StorageFailure(error)
      }
    },
    delete: (p) => deps.storage.delete(p),
  }
  type Brought = { file: PlannedFile; media: ImportedMedia; reason: string | null }
  const missing = (file: PlannedFile, reason: string): Brought => ({
    file,
    media: notBrought(file, reason),
    reason,
  })
  const bring = async (file: PlannedFile): Promise<Brought> => {
    const download = await deps.remote.download(file.url)
    if (!download.ok) return missing(file, download.reason)
    const upload = { name: fileNameOf(file.url), bytes: download.bytes }
    let checked: Awaited<ReturnType<typeof checkUpload>>
    try {
      checked = await checkUpload(upload)
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      return missing(file, error.message)
    }
    let saved: StoredMedia[]
    try {
      saved = await storeUploads(writer, [upload], [checked], PRODUCT_MEDIA_FOLDER, { share: true })
    } catch (error) {
      if (error instanceof StorageFailure) throw error
      // The file passed the check yet could not be turned into variants (an image library
      // error): that one file is missing, like a file that could not be downloaded.
      const detail = error instanceof Error ? error.message : String(error)
      return missing(file, `la imagen no se pudo procesar: ${detail}`)
    }
    stored.push(saved[0]!)
    return { file, media: { stored: saved[0]!, main: file.main }, reason: null }
  }
  // Every download settles before anything is decided, so no file is stored after a cleanup.
  const settled = await Promise.allSettled(
    planned.flatMap((product) =>
      product.media.map((file) =>
        limit(async (): Promise<Brought> => {
          try {
            return await bring(file)
          } catch (error) {
            if (error instanceof StorageFailure) throw error
            // Only a storage failure stops the import: anything else that goes wrong with one file
            // (a download that throws, a check that fails unexpectedly) leaves that file out.
            const detail = error instanceof Error ? `: ${error.message}` : ''
            return missing(file, `no se pudo traer por un error inesperado${detail}`)
          }
        }),
      ),
    ),
  )
  const failure = settled.find((result) => result.status === 'rejected')
  if (failure) {
    await deleteStoredFiles(deps.storage, stored.flatMap(storedPaths))
    const rejected = failure.reason as unknown
    const cause = rejected instanceof StorageFailure ? rejected.cause : rejected
    throw new ImportStopped(
      `No se pudo guardar un archivo en el almacenamiento (${cause instanceof Error ? cause.message : String(cause)}): no se importó nada.`,
      { cause },
    )
  }
  const results = settled.map((result) => (result as PromiseFulfilledResult<Brought>).value)
  const media = new Map<string, ImportedMedia[]>()
  let next = 0
  for (const product of planned) {
    const files = results.slice(next, next + product.media.length)
    next += product.media.length
    media.set(
      product.sku,
      files.map((brought) => brought.media),
    )
    for (const { file, reason } of files) {
      if (reason === null) continue
      plan.warnings.push({
        kind: 'producto',
        key: product.sku,
        reason: `No se pudo traer ${addressWithoutCredentials(file.url)} (${reason}): ${MISSING_FILE_OUTCOME}`,
      })
    }
  }
  return media
}

/** The file name in an address (Firebase keeps the folder in one escaped segment: productos%2Fa.jpg). */
function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).split('/').pop() || url
  } catch {
    return url
  }
}
