import { useEffect } from 'react'
import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldDescribedBy } from '#app/components/admin/field.tsx'
import { dangerButtonClass, inputClass, primaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { AdminShippingZone, ShippingZoneChoice } from '#app/modules/settings/settings.server.ts'
import type { ShippingZoneFieldErrors, ShippingZoneFormValues } from '#app/modules/settings/validators.ts'
import { formatCOP } from '#app/utils/money.ts'
import { cardClass } from './card.ts'
import type { Route } from '../+types/settings'

type ActionData = Route.ComponentProps['actionData']

const EMPTY_ZONE: ShippingZoneFormValues = { code: '', cost: '', cashOnDelivery: true }

/**
 * "Envío por zona": the shipping rules of departments and municipalities, each with its "Quitar",
 * and the form that adds one (or replaces the rules of a place that has them). Plain posts: all of
 * it works without JavaScript.
 */
export function ShippingZonesSection({
  zones,
  choices,
  actionData,
}: {
  zones: AdminShippingZone[]
  choices: ShippingZoneChoice[]
  actionData: ActionData
}) {
  const navigation = useNavigation()
  const intent = navigation.formData?.get('intent')
  const busy = navigation.state === 'submitting' && (intent === 'zona-guardar' || intent === 'zona-quitar')
  const failed = actionData && !actionData.ok && actionData.intent === 'zona-guardar' ? actionData : null
  const values = failed?.zoneValues ?? EMPTY_ZONE
  const errors: ShippingZoneFieldErrors = failed?.fieldErrors ?? {}
  // The form is rebuilt after each of its answers: empty after a save, as typed after a refusal.
  const formKey = actionData?.intent === 'zona-guardar' ? actionData.at : 0
  return (
    <section aria-labelledby="shipping-zones-title" className={cardClass} data-testid="shipping-zones">
      <div>
        <h2 id="shipping-zones-title" className="text-lg font-semibold">
          Envío por zona
        </h2>
        <p className="text-sm text-gray-600">
          La regla de un municipio se aplica antes que la de su departamento, y esta antes que el costo de
          envío general; el envío gratis desde el valor configurado se mantiene en todas las zonas.
        </p>
      </div>
      {zones.length === 0 ? (
        <p className="text-sm text-gray-600" data-testid="shipping-zones-empty">
          Todavía no hay zonas: todos los envíos usan el costo general y aceptan pago contra entrega.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="shipping-zones-table">
            <caption className="sr-only">Zonas de envío</caption>
            <thead className="bg-brand-50 text-xs text-gray-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Zona
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Costo de envío
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Contra entrega
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-brand-50">
              {zones.map((zone) => (
                <tr key={zone.code} data-testid="shipping-zone" data-code={zone.code}>
                  <th scope="row" className="px-3 py-2 font-medium">
                    {zone.place}
                  </th>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {zone.cost === null ? 'Costo general' : formatCOP(zone.cost)}
                  </td>
                  <td className="px-3 py-2">{zone.cashOnDelivery ? 'Sí' : 'No'}</td>
                  <td className="px-3 py-2 text-right">
                    <AdminForm method="post">
                      <input type="hidden" name="intent" value="zona-quitar" />
                      <input type="hidden" name="code" value={zone.code} />
                      <button type="submit" className={dangerButtonClass} disabled={busy}>
                        Quitar<span className="sr-only"> {zone.place}</span>
                      </button>
                    </AdminForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ShippingZoneForm
        key={`zone-${formKey}`}
        choices={choices}
        values={values}
        errors={errors}
        busy={busy}
      />
    </section>
  )
}

function ShippingZoneForm({
  choices,
  values,
  errors,
  busy,
}: {
  choices: ShippingZoneChoice[]
  values: ShippingZoneFormValues
  errors: ShippingZoneFieldErrors
  busy: boolean
}) {
  // Rebuilt after a refusal with what was typed: take the admin to the first bad field.
  useEffect(() => {
    document.querySelector<HTMLElement>('[data-testid="shipping-zone-form"] [aria-invalid="true"]')?.focus()
  }, [])
  return (
    <AdminForm
      method="post"
      className="flex flex-col gap-3 rounded-lg border border-dashed border-brand-200 p-3"
      data-testid="shipping-zone-form"
      noValidate
    >
      <h3 className="font-semibold">Agregar o cambiar una zona</h3>
      <input type="hidden" name="intent" value="zona-guardar" />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="zone-code"
          label="Departamento o municipio"
          hint="Si la zona ya está en la lista, sus reglas se reemplazan."
          error={errors.code}
        >
          <select
            id="zone-code"
            name="code"
            defaultValue={values.code}
            aria-invalid={errors.code ? true : undefined}
            aria-describedby={fieldDescribedBy('zone-code', errors.code, true)}
            className={inputClass}
          >
            <option value="">Elige un departamento o municipio</option>
            {choices.map((department) => (
              <optgroup key={department.code} label={department.name}>
                <option value={department.code}>{`${department.name} (todo el departamento)`}</option>
                {department.municipalities.map((municipality) => (
                  <option key={municipality.code} value={municipality.code}>
                    {municipality.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field
          id="zone-cost"
          label="Costo de envío (vacío: costo general)"
          hint="Pesos enteros; 0 = envío gratis a esta zona."
          error={errors.cost}
        >
          <input
            id="zone-cost"
            name="cost"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={values.cost}
            aria-invalid={errors.cost ? true : undefined}
            aria-describedby={fieldDescribedBy('zone-cost', errors.cost, true)}
            className={inputClass}
          />
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700">
        <input
          type="checkbox"
          name="cashOnDelivery"
          defaultChecked={values.cashOnDelivery}
          className="size-5"
        />
        Acepta pago contra entrega
      </label>
      <div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          Guardar zona
        </button>
      </div>
    </AdminForm>
  )
}
