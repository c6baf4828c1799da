import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { secondaryButtonClass } from '#app/components/admin/form-message.tsx'

/** Pushes one SKU's stock to one channel again. */
export function RetryButton({ channel, sku, label }: { channel: string; sku: string; label: string }) {
  return (
    <AdminForm method="post" className="shrink-0">
      <input type="hidden" name="intent" value="reintentar" />
      <input type="hidden" name="canal" value={channel} />
      <input type="hidden" name="sku" value={sku} />
      <button type="submit" className={secondaryButtonClass} aria-label={`Reintentar ${sku} en ${label}`}>
        Reintentar
      </button>
    </AdminForm>
  )
}
