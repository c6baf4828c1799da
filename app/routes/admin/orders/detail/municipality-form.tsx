import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { inputClass, primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { MUNICIPALITY_MESSAGES, SET_MUNICIPALITY_INTENT } from '#app/modules/order/delivery-place.ts'
import type { DeskOrderView } from './desk-view.ts'

/**
 * An order without its DANE municipality (placed before the checkout asked for it, or imported):
 * the notice, and a plain form (it works without JavaScript) to pick it from the order's
 * department, or from every department by group when the department is not one the shop knows. The
 * municipality the shopper's city names, when one does, comes chosen.
 */
export function MunicipalityForm({ order, busy }: { order: DeskOrderView; busy: boolean }) {
  const groups = order.municipalityChoices
  const option = (municipality: { code: string; name: string }) => (
    <option key={municipality.code} value={municipality.code}>
      {municipality.name} ({municipality.code})
    </option>
  )
  return (
    <div
      className="mt-3 flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm"
      data-testid="order-municipality-missing"
    >
      <p className="font-medium text-amber-900">{MUNICIPALITY_MESSAGES.missing}</p>
      <AdminForm method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value={SET_MUNICIPALITY_INTENT} />
        <label className="flex flex-1 flex-col gap-1">
          <span className="font-medium">Municipio (DANE)</span>
          <select
            key={order.id}
            name="municipality_code"
            required
            defaultValue={order.place.suggestedMunicipalityCode ?? ''}
            className={inputClass}
          >
            <option value="">Elige un municipio</option>
            {groups.length === 1
              ? groups[0]!.municipalities.map(option)
              : groups.map((group) => (
                  <optgroup key={group.departmentCode} label={group.departmentName}>
                    {group.municipalities.map(option)}
                  </optgroup>
                ))}
          </select>
        </label>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          Guardar municipio
        </button>
      </AdminForm>
    </div>
  )
}
