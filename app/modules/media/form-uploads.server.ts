import { Refusal } from '#app/utils/refusal.ts'
import type { Upload } from './media.server.ts'
import { MAX_FILES_PER_POST, UPLOAD_MESSAGES } from './validators.ts'

/**
 * Whether the posted form carries a file with content in any field: only such a post costs image or
 * video work, and only it is counted against the client's upload allowance (a file input with
 * nothing chosen sends an empty part, so a save of prices or names is not). Reads the parsed form's
 * sizes, never the files again.
 */
export function carriesFile(form: FormData): boolean {
  for (const [, value] of form) if (typeof value !== 'string' && value.size > 0) return true
  return false
}

/**
 * The non-empty files of a multipart field (a file input with nothing chosen sends one empty part).
 * More than `MAX_FILES_PER_POST` is refused before any is read.
 */
export async function uploadsFrom(form: FormData, field: string): Promise<Upload[]> {
  const files = form.getAll(field).filter((value): value is File => typeof value !== 'string')
  const chosen = files.filter((file) => file.size > 0 || file.name !== '')
  if (chosen.length > MAX_FILES_PER_POST) throw new Refusal(UPLOAD_MESSAGES.tooMany)
  return Promise.all(
    chosen.map(async (file) => ({ name: file.name, bytes: Buffer.from(await file.arrayBuffer()) })),
  )
}
