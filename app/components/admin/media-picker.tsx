import { useEffect, useMemo, type RefObject } from 'react'
import { Field, fieldHintId } from './field.tsx'

/** What a file chooser offers: images and the three video formats the server accepts. */
export const MEDIA_ACCEPT = 'image/*,video/mp4,video/webm,video/ogg'

export const isVideo = (file: File) => file.type.startsWith('video/')

/**
 * The product form's media picker: chosen images and videos previewed, one of the new ones picked
 * as the main image (or the current main image kept, on edit).
 */
export function MediaPicker({
  mode,
  inputRef,
  files,
  onFiles,
  mainNew,
  onMainNew,
  currentMainId,
  existingMediaCount,
}: {
  mode: 'create' | 'edit'
  inputRef: RefObject<HTMLInputElement>
  files: File[]
  onFiles: (files: File[]) => void
  mainNew: number | null
  onMainNew: (index: number | null) => void
  currentMainId: number | null
  existingMediaCount: number
}) {
  const previews = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files])
  useEffect(() => () => previews.forEach((url) => URL.revokeObjectURL(url)), [previews])
  return (
    <Field id="product-images" label={mode === 'edit' ? 'Agregar imágenes' : 'Imágenes'}>
      <input
        ref={inputRef}
        id="product-images"
        name="images"
        type="file"
        accept={MEDIA_ACCEPT}
        aria-describedby={fieldHintId('product-images')}
        multiple
        className="block text-sm"
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])]
          onFiles(chosen)
          // A product without a main image takes the first new file until the admin picks another;
          // one that has one keeps it.
          onMainNew(currentMainId === null && chosen.length > 0 ? 0 : null)
        }}
      />
      {/* The hint stays under the chooser, above the previews. */}
      <p id={fieldHintId('product-images')} className="mt-1 text-xs text-gray-600">
        Imágenes de hasta 10 MB o videos MP4, WebM u Ogg de hasta 50 MB.
      </p>
      {mode === 'edit' && currentMainId !== null ? (
        <input
          type="hidden"
          name="mainImage"
          value={`existente:${currentMainId}`}
          disabled={mainNew !== null}
        />
      ) : null}
      {files.length > 0 ? (
        <fieldset className="mt-3">
          <legend className="mb-2 text-sm font-medium text-gray-700">
            {mode === 'edit' && existingMediaCount > 0
              ? 'Imagen principal (opcional: elige una nueva)'
              : 'Imagen principal'}
          </legend>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="new-images">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="rounded-lg border border-brand-100 p-2">
                {isVideo(file) ? (
                  <video
                    src={previews[index]}
                    aria-label={file.name}
                    muted
                    playsInline
                    preload="metadata"
                    data-testid="new-video-preview"
                    className="aspect-square w-full rounded object-cover"
                  />
                ) : (
                  <img
                    src={previews[index]}
                    alt={file.name}
                    className="aspect-square w-full rounded object-cover"
                  />
                )}
                <label className="mt-2 flex items-center gap-2 text-xs">
                  <input
                    type="radio"
                    name="mainImage"
                    value={`nueva:${index}`}
                    checked={mainNew === index}
                    onChange={() => onMainNew(index)}
                  />
                  <span className="truncate">Imagen principal: {file.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
    </Field>
  )
}
