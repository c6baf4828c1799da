import { Field } from '#app/components/admin/field.tsx'
import { inputClass } from '#app/components/admin/form-message.tsx'

/** What a banner form posts besides its files; a refused post gives them back to refill the form. */
export type BannerFieldValues = { alt: string; link: string; active: boolean }

/** The fields a new banner and an edited one share. */
export function BannerFieldsInputs({ prefix, alt, link, active }: { prefix: string } & BannerFieldValues) {
  return (
    <>
      <Field
        id={`${prefix}-alt`}
        label="Texto alternativo"
        hint="Describe la imagen, por ejemplo «Collares en oferta»."
      >
        <input
          id={`${prefix}-alt`}
          name="alt"
          type="text"
          maxLength={160}
          defaultValue={alt}
          className={inputClass}
        />
      </Field>
      <Field
        id={`${prefix}-link`}
        label="Enlace (opcional)"
        hint="Una ruta de la tienda (/categoria/…) o una dirección https://."
      >
        <input
          id={`${prefix}-link`}
          name="link"
          type="text"
          inputMode="url"
          defaultValue={link}
          className={inputClass}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700">
        <input type="checkbox" name="active" defaultChecked={active} className="size-5" />
        Activo (se muestra en la página de inicio)
      </label>
    </>
  )
}
