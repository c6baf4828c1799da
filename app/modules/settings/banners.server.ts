import { asc, eq, inArray, or } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import { media } from '#app/modules/catalog/schema.ts'
import { imageSource, mediaUrl, type ImageSource, type MediaReads } from '#app/modules/media/image-source.ts'
import {
  deleteStoredFiles,
  storedMediaColumns,
  storedPaths,
  type Upload,
} from '#app/modules/media/media.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { withStoredFiles, type StoredFilesOptions } from '#app/modules/media/stored-files.server.ts'
import { uploadsFrom } from '#app/modules/media/form-uploads.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { banners } from './schema.ts'
import { lockSettings, recordSettingChange } from './settings.server.ts'
import {
  BANNER_CHANGE_KEY,
  BANNER_MESSAGES,
  BannerFieldsSchema,
  normalizeBannerLink,
  type BannerFields,
  type BannerTarget,
} from './validators.ts'

export type Banner =
  | {
      id: number
      kind: 'image'
      alt: string
      link: string | null
      desktop: ImageSource
      mobile: ImageSource | null
    }
  | { id: number; kind: 'video'; alt: string; link: string | null; src: string }

type BannerRow = typeof banners.$inferSelect

/** Banner rows with their media, as the carousel shows them (rows whose media is gone are left out). */
async function withMedia({ db, publicBase }: MediaReads, rows: BannerRow[]): Promise<Banner[]> {
  // Media by primary key in a second query: a join let the planner hash the whole media table
  // (one row per product image) on every home page view.
  const ids = rows.flatMap((row) =>
    row.mobileMediaId === null ? [row.desktopMediaId] : [row.desktopMediaId, row.mobileMediaId],
  )
  const files = ids.length ? await db.select().from(media).where(inArray(media.id, ids)) : []
  const byId = new Map(files.map((file) => [file.id, file]))
  return rows.flatMap((banner) => {
    const desktop = byId.get(banner.desktopMediaId)
    if (!desktop) return []
    const small = banner.mobileMediaId === null ? undefined : byId.get(banner.mobileMediaId)
    return [
      banner.kind === 'video' || desktop.kind === 'video'
        ? {
            id: banner.id,
            kind: 'video' as const,
            alt: banner.alt,
            link: banner.link,
            src: mediaUrl(desktop.path, publicBase),
          }
        : {
            id: banner.id,
            kind: 'image' as const,
            alt: banner.alt,
            link: banner.link,
            desktop: imageSource(desktop, banner.alt, publicBase),
            mobile: small ? imageSource(small, banner.alt, publicBase) : null,
          },
    ]
  })
}

const inOrder = [asc(banners.position), asc(banners.id)]

/** The home carousel: the active banners, in their order. */
export async function listBanners(reads: MediaReads): Promise<Banner[]> {
  const rows = await reads.db
    .select()
    .from(banners)
    .where(eq(banners.active, true))
    .orderBy(...inOrder)
  return withMedia(reads, rows)
}

/** A banner whose file is gone (never shown in the shop): the admin sees it, to delete it. */
export type MissingBanner = { id: number; kind: 'missing'; alt: string; link: string | null }

export type AdminBanner = (Banner | MissingBanner) & { active: boolean; position: number }

/**
 * Every banner, active or not, in order, for "Configuraciones" (`position` counts from 1, over all
 * rows, as moves count them); a row whose media is gone is listed as `missing`.
 */
export async function listAdminBanners(reads: MediaReads): Promise<AdminBanner[]> {
  const rows = await reads.db
    .select()
    .from(banners)
    .orderBy(...inOrder)
  const shown = new Map((await withMedia(reads, rows)).map((banner) => [banner.id, banner]))
  return rows.map((row, index) => ({
    ...(shown.get(row.id) ?? { id: row.id, kind: 'missing' as const, alt: row.alt, link: row.link }),
    active: row.active,
    position: index + 1,
  }))
}

/** What the audit keeps of a banner: enough to tell which one it was and how it was set. */
function auditOf(row: BannerRow, position: number) {
  return { id: row.id, alt: row.alt, link: row.link, active: row.active, position, kind: row.kind }
}

export type BannerInput = {
  alt: unknown
  link: unknown
  active: boolean
}

function parseFields(input: BannerInput): BannerFields {
  const parsed = BannerFieldsSchema.safeParse({
    alt: typeof input.alt === 'string' ? input.alt : '',
    link: typeof input.link === 'string' ? input.link : '',
    active: input.active,
  })
  if (!parsed.success) throw new Refusal(parsed.error.issues[0]!.message, { standsAlone: true })
  const link = normalizeBannerLink(parsed.data.link)
  if (!link.ok) throw new Refusal(BANNER_MESSAGES.link, { standsAlone: true })
  return { alt: parsed.data.alt, link: link.link, active: parsed.data.active }
}

/** A banner is an image (with an optional smaller one for phones) or a single video. */
const BANNER_FILES: StoredFilesOptions = {
  folder: 'banners',
  accept: ([desktop, mobile]) => {
    if (mobile && desktop!.kind === 'video')
      throw new Refusal(BANNER_MESSAGES.mobileWithVideo, { standsAlone: true })
    if (mobile && mobile.kind !== 'image') {
      throw new Refusal(BANNER_MESSAGES.mobileNotImage, { standsAlone: true })
    }
  },
}

/** Every banner row in order, locked for the caller's transaction. */
async function orderedRows(tx: Tx) {
  return tx
    .select()
    .from(banners)
    .orderBy(...inOrder)
    .for('update')
}

/** Positions 0, 1, 2… in the given order (only rows whose position changes are written). */
async function renumber(tx: Tx, rows: BannerRow[]) {
  for (const [index, row] of rows.entries()) {
    if (row.position !== index)
      await tx.update(banners).set({ position: index }).where(eq(banners.id, row.id))
  }
}

/** The banner form's files: one per field (the inputs take one), never a silently ignored second. */
export async function bannerUploadsFrom(
  form: FormData,
): Promise<{ desktop: Upload | null; mobile: Upload | null }> {
  const desktops = await uploadsFrom(form, 'desktop')
  const mobiles = await uploadsFrom(form, 'mobile')
  if (desktops.length > 1 || mobiles.length > 1)
    throw new Refusal(BANNER_MESSAGES.oneFile, { status: 400, standsAlone: true })
  return { desktop: desktops[0] ?? null, mobile: mobiles[0] ?? null }
}

/**
 * Adds a banner last: an image for wide screens (optionally with one for screens below 700 px) or
 * a video, uploaded and checked like product media. Everything is checked before a file is
 * stored; a refusal stores nothing.
 */
export async function createBanner(
  db: Db,
  storage: MediaStorage,
  input: BannerInput & { desktop: Upload | null; mobile: Upload | null },
  by: string,
): Promise<{ id: number }> {
  const fields = parseFields(input)
  if (!input.desktop) throw new Refusal(BANNER_MESSAGES.imageRequired, { standsAlone: true })
  const uploads = input.mobile ? [input.desktop, input.mobile] : [input.desktop]
  return withStoredFiles(storage, uploads, BANNER_FILES, (stored) =>
    db.transaction(async (tx) => {
      await lockSettings(tx)
      const mediaIds: number[] = []
      for (const file of stored) {
        const [row] = await tx
          .insert(media)
          .values({ productSku: null, alt: fields.alt, ...storedMediaColumns(file) })
          .returning({ id: media.id })
        mediaIds.push(row!.id)
      }
      const rows = await orderedRows(tx)
      await renumber(tx, rows)
      const [created] = await tx
        .insert(banners)
        .values({
          kind: stored[0]!.kind,
          position: rows.length,
          desktopMediaId: mediaIds[0]!,
          mobileMediaId: mediaIds[1] ?? null,
          alt: fields.alt,
          link: fields.link,
          active: fields.active,
        })
        .returning()
      await recordSettingChange(tx, {
        key: BANNER_CHANGE_KEY,
        oldValue: null,
        newValue: auditOf(created!, rows.length + 1),
        by,
      })
      return { id: created!.id }
    }),
  )
}

function notFound(): never {
  throw new Refusal(BANNER_MESSAGES.notFound, { status: 404, standsAlone: true })
}

/** Changes a banner's alt text, link and active flag (its files stay). */
export async function updateBanner(db: Db, id: number, input: BannerInput, by: string): Promise<void> {
  const fields = parseFields(input)
  await db.transaction(async (tx) => {
    await lockSettings(tx)
    const rows = await orderedRows(tx)
    const index = rows.findIndex((row) => row.id === id)
    if (index < 0) notFound()
    const before = rows[index]!
    const after = { ...before, ...fields }
    if (before.alt === after.alt && before.link === after.link && before.active === after.active) return
    await tx.update(banners).set(fields).where(eq(banners.id, id))
    await recordSettingChange(tx, {
      key: BANNER_CHANGE_KEY,
      oldValue: auditOf(before, index + 1),
      newValue: auditOf(after, index + 1),
      by,
    })
  })
}

/**
 * Moves a banner to `to`: "arriba" or "abajo" one place, or a position counted from 1 (beyond the
 * end means last). The others keep their order.
 */
export async function moveBanner(db: Db, id: number, to: BannerTarget | null, by: string): Promise<void> {
  if (to === null) throw new Refusal(BANNER_MESSAGES.position, { status: 400, standsAlone: true })
  await db.transaction(async (tx) => {
    await lockSettings(tx)
    const rows = await orderedRows(tx)
    const from = rows.findIndex((row) => row.id === id)
    if (from < 0) notFound()
    const wanted = to === 'arriba' ? from - 1 : to === 'abajo' ? from + 1 : to - 1
    const target = Math.min(Math.max(wanted, 0), rows.length - 1)
    const moved = rows[from]!
    const reordered = rows.filter((row) => row.id !== id)
    reordered.splice(target, 0, moved)
    await renumber(tx, reordered)
    if (target === from) return
    await recordSettingChange(tx, {
      key: BANNER_CHANGE_KEY,
      oldValue: auditOf(moved, from + 1),
      newValue: auditOf(moved, target + 1),
      by,
    })
  })
}

/** Deletes a banner and its media rows; the files go once the deletion is committed. */
export async function deleteBanner(db: Db, storage: MediaStorage, id: number, by: string): Promise<void> {
  const files = await db.transaction(async (tx) => {
    await lockSettings(tx)
    const rows = await orderedRows(tx)
    const index = rows.findIndex((row) => row.id === id)
    if (index < 0) notFound()
    const row = rows[index]!
    await tx.delete(banners).where(eq(banners.id, id))
    const mediaIds =
      row.mobileMediaId === null ? [row.desktopMediaId] : [row.desktopMediaId, row.mobileMediaId]
    // Only media no other banner uses (the demo data never shares, but a row could), each on its own.
    const stillUsed = await tx
      .select({ desktop: banners.desktopMediaId, mobile: banners.mobileMediaId })
      .from(banners)
      .where(or(inArray(banners.desktopMediaId, mediaIds), inArray(banners.mobileMediaId, mediaIds)))
    const used = new Set(stillUsed.flatMap((other) => [other.desktop, other.mobile]))
    const unshared = mediaIds.filter((mediaId) => !used.has(mediaId))
    const removed = unshared.length
      ? await tx.delete(media).where(inArray(media.id, unshared)).returning()
      : []
    // A file another media row points at (a product's video shown as a banner too) stays.
    const paths = removed.flatMap((file) => storedPaths(file))
    const shared = paths.length
      ? await tx.select({ path: media.path }).from(media).where(inArray(media.path, paths))
      : []
    const sharedPaths = new Set(shared.map((file) => file.path))
    await renumber(
      tx,
      rows.filter((other) => other.id !== id),
    )
    await recordSettingChange(tx, {
      key: BANNER_CHANGE_KEY,
      oldValue: auditOf(row, index + 1),
      newValue: null,
      by,
    })
    return paths.filter((path) => !sharedPaths.has(path))
  })
  await deleteStoredFiles(storage, files)
}
