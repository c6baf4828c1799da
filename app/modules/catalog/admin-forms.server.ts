import type { Db } from '#app/db/client.server.ts'
import { UploadError, type Upload } from '#app/modules/media/media.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { MAX_FILES_PER_POST, UPLOAD_MESSAGES } from '#app/modules/media/validators.ts'
import {
  createProduct,
  parseMainChoice,
  ProductAdminError,
  saveFailureMessage,
  updateProduct,
} from './admin-products.server.ts'
import { firstMessage, PRODUCT_MESSAGES, productFieldsFrom } from './validators.ts'

/**
 * The non-empty files of a multipart field (a file input with nothing chosen sends one empty part).
 * More than `MAX_FILES_PER_POST` is refused before any is read.
 */
export async function uploadsFrom(form: FormData, field: string): Promise<Upload[]> {
  const files = form.getAll(field).filter((value): value is File => typeof value !== 'string')
  const chosen = files.filter((file) => file.size > 0 || file.name !== '')
  if (chosen.length > MAX_FILES_PER_POST) throw new UploadError(UPLOAD_MESSAGES.tooMany)
  return Promise.all(
    chosen.map(async (file) => ({ name: file.name, bytes: Buffer.from(await file.arrayBuffer()) })),
  )
}

export type ProductFormResult = { ok: true; sku: string; message: string } | { ok: false; message: string }

/**
 * The create (no sku) or edit form post: fields, new images (`images`) and the main-image choice
 * (`mainImage`: `nueva:{index}` or `existente:{mediaId}`). Every refusal is a Spanish message.
 */
export async function saveProductForm(
  db: Db,
  storage: MediaStorage,
  form: FormData,
  sku?: string,
): Promise<ProductFormResult> {
  const parsed = productFieldsFrom(form)
  if (!parsed.success) return { ok: false, message: firstMessage(parsed.error) }
  const main = parseMainChoice(form.get('mainImage'))
  try {
    const uploads = await uploadsFrom(form, 'images')
    if (!sku) {
      if (main !== null && !('upload' in main)) throw new ProductAdminError(PRODUCT_MESSAGES.mainImageInvalid)
      const created = await createProduct(db, storage, {
        fields: parsed.data,
        uploads,
        mainIndex: main ? main.upload : null,
      })
      return { ok: true, sku: created.sku, message: PRODUCT_MESSAGES.created }
    }
    await updateProduct(db, storage, sku, { fields: parsed.data, uploads, main })
    return { ok: true, sku, message: PRODUCT_MESSAGES.updated }
  } catch (error) {
    // Spec §5 validation texts stand alone; every other failure reads "Error: {message}" (§8).
    return { ok: false, message: saveFailureMessage(error) }
  }
}
