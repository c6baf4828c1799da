import { useEffect, useState } from 'react'
import { Link, redirect, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldDescribedBy } from '#app/components/admin/field.tsx'
import {
  ActionMessage,
  FormMessage,
  inputClass,
  labelClass,
  primaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import {
  createPromotion,
  getPromotion,
  promotionCategoryChoices,
  PromotionRefused,
  updatePromotion,
} from '#app/modules/promotions/admin-promotions.server.ts'
import { CODE_MAX_LENGTH } from '#app/modules/promotions/messages.ts'
import { PROMOTION_BENEFITS, PROMOTION_TARGETS } from '#app/modules/promotions/rules.ts'
import {
  NAME_MAX_LENGTH,
  NEW_PROMOTION_VALUES,
  PROMOTION_BENEFIT_LABELS,
  PROMOTION_KIND_LABELS,
  PROMOTION_KINDS,
  PROMOTION_LABELS,
  PROMOTION_MESSAGES,
  PROMOTION_TARGET_LABELS,
  promotionAsFormValues,
  promotionFormValues,
  type PromotionField,
  type PromotionFieldErrors,
  type PromotionFormValues,
} from '#app/modules/promotions/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { ADMIN_PROMOTIONS_PATH } from '#app/utils/admin-paths.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/form'

/** /admin/descuentos/nueva and /admin/descuentos/editar/{id}: one form, two routes. */

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `${params.id ? 'Editar' : 'Nueva'} promoción | Descuentos y Promociones | Administración` },
]

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = servicesOf(context).database
  const categories = await promotionCategoryChoices(db)
  if (params.id === undefined) return { mode: 'create' as const, values: NEW_PROMOTION_VALUES, categories }
  const promotion = await getPromotion(db, params.id)
  return {
    mode: 'edit' as const,
    values: promotion ? promotionAsFormValues(promotion) : null,
    categories,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const values = promotionFormValues(form)
  const { db } = servicesOf(context).database
  try {
    if (params.id !== undefined) {
      await updatePromotion(db, params.id, values)
      return redirect(`${ADMIN_PROMOTIONS_PATH}?aviso=actualizada`)
    }
    await createPromotion(db, values)
    return redirect(`${ADMIN_PROMOTIONS_PATH}?aviso=creada`)
  } catch (thrown) {
    const fieldErrors: PromotionFieldErrors = thrown instanceof PromotionRefused ? thrown.errors : {}
    // A refused form shows again what was typed, each bad field with its message.
    return formFailure(
      thrown,
      request,
      { unexpected: PROMOTION_MESSAGES.unexpected },
      { fieldErrors, typed: values },
    )
  }
}

type FieldProps = { values: PromotionFormValues; errors: PromotionFieldErrors }

function TextInput({
  name,
  values,
  errors,
  hint,
  type = 'text',
  inputMode,
  maxLength,
}: FieldProps & {
  name: Exclude<PromotionField, 'categoryIds' | 'combinable' | 'active'>
  hint?: string
  type?: string
  inputMode?: 'numeric' | 'text'
  maxLength?: number
}) {
  const id = `promotion-${name}`
  const error = errors[name]
  return (
    <Field id={id} label={PROMOTION_LABELS[name]} hint={hint} error={error}>
      <input
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        maxLength={maxLength}
        autoComplete="off"
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, error, Boolean(hint))}
        className={inputClass}
      />
    </Field>
  )
}

/** The groups shown for a benefit and a target (with scripts; without them every group shows). */
function shownGroups(kind: string, benefit: string, target: string) {
  return {
    code: kind !== 'automatica',
    percent: benefit === 'percent' || benefit === 'set_discount',
    amount: benefit === 'fixed',
    buyPay: benefit === 'buy_x_pay_y',
    products: target === 'products',
  }
}

export default function PromotionForm({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, categories } = loaderData
  const navigation = useNavigation()
  const failed = actionData && !actionData.ok ? actionData : null
  const values = failed?.typed ?? loaderData.values
  const errors: PromotionFieldErrors = failed?.fieldErrors ?? {}
  const [choice, setChoice] = useState(() => ({
    kind: values?.kind ?? 'codigo',
    benefit: values?.benefit ?? 'percent',
    target: values?.target ?? 'order',
  }))
  // Until scripts run every field is on the page (the server checks the combination); then only
  // the ones the chosen kind, benefit and target use.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (values) setChoice({ kind: values.kind, benefit: values.benefit, target: values.target })
    document.querySelector<HTMLElement>('[data-testid="promotion-form"] [aria-invalid="true"]')?.focus()
  }, [values])
  if (!values) {
    return (
      <section className="flex flex-col items-start gap-4">
        <FormMessage message={PROMOTION_MESSAGES.notFound} tone="error" />
        <Link to={ADMIN_PROMOTIONS_PATH} className="text-brand-700 underline">
          Volver a Descuentos y Promociones
        </Link>
      </section>
    )
  }
  const shown = shownGroups(choice.kind, choice.benefit, choice.target)
  const hide = (visible: boolean) => (hydrated && !visible ? 'hidden' : '')
  const props = { values, errors }
  const title = mode === 'edit' ? 'Editar promoción' : 'Nueva promoción'
  return (
    <section aria-labelledby="promotion-form-title" className="flex max-w-2xl flex-col gap-4">
      <div>
        <p className="text-sm text-gray-600">
          <Link to={ADMIN_PROMOTIONS_PATH} className="text-brand-700 underline">
            Descuentos y Promociones
          </Link>
        </p>
        <h1 id="promotion-form-title" className="text-2xl font-semibold">
          {title}
        </h1>
      </div>
      <ActionMessage answer={actionData} />
      <AdminForm
        key={failed?.at ?? 0}
        method="post"
        noValidate
        data-testid="promotion-form"
        className="flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
        onChange={(event) => {
          const target = event.target as HTMLInputElement | HTMLSelectElement
          if (target.name === 'kind' || target.name === 'benefit' || target.name === 'target')
            setChoice((current) => ({ ...current, [target.name]: target.value }))
        }}
      >
        <TextInput
          name="name"
          maxLength={NAME_MAX_LENGTH}
          hint="Lo ve el cliente junto al descuento."
          {...props}
        />
        <fieldset>
          <legend className={labelClass}>{PROMOTION_LABELS.kind}</legend>
          <div className="flex flex-col gap-1 sm:flex-row sm:gap-6">
            {PROMOTION_KINDS.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input type="radio" name="kind" value={kind} defaultChecked={values.kind === kind} />
                {PROMOTION_KIND_LABELS[kind]}
              </label>
            ))}
          </div>
          {errors.kind ? <p className="mt-1 text-sm text-red-700">{errors.kind}</p> : null}
        </fieldset>
        <div className={hide(shown.code)}>
          <TextInput
            name="code"
            maxLength={CODE_MAX_LENGTH + 10}
            hint="Solo para códigos: letras, números, - y _. Se guarda en mayúsculas y sin espacios."
            {...props}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="promotion-benefit" label={PROMOTION_LABELS.benefit} error={errors.benefit}>
            <select
              id="promotion-benefit"
              name="benefit"
              defaultValue={values.benefit}
              aria-invalid={errors.benefit ? true : undefined}
              aria-describedby={fieldDescribedBy('promotion-benefit', errors.benefit)}
              className={inputClass}
            >
              {PROMOTION_BENEFITS.map((benefit) => (
                <option key={benefit} value={benefit}>
                  {PROMOTION_BENEFIT_LABELS[benefit]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="promotion-target" label={PROMOTION_LABELS.target} error={errors.target}>
            <select
              id="promotion-target"
              name="target"
              defaultValue={values.target}
              aria-invalid={errors.target ? true : undefined}
              aria-describedby={fieldDescribedBy('promotion-target', errors.target)}
              className={inputClass}
            >
              {PROMOTION_TARGETS.map((target) => (
                <option key={target} value={target}>
                  {PROMOTION_TARGET_LABELS[target]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className={hide(shown.percent)}>
            <TextInput
              name="percent"
              inputMode="numeric"
              hint="Porcentaje o descuento programado: de 1 a 100. 100 % en el envío = envío gratis."
              {...props}
            />
          </div>
          <div className={hide(shown.amount)}>
            <TextInput
              name="amount"
              inputMode="numeric"
              hint="Valor fijo: pesos enteros, por ejemplo 15.000."
              {...props}
            />
          </div>
        </div>
        <div className={`grid grid-cols-2 gap-4 ${hide(shown.buyPay)}`}>
          <TextInput
            name="buyQuantity"
            inputMode="numeric"
            hint="Lleve N, pague M: N de 2 a 20."
            {...props}
          />
          <TextInput name="payQuantity" inputMode="numeric" hint="M menor que N." {...props} />
        </div>
        <fieldset className={`flex flex-col gap-3 ${hide(shown.products)}`}>
          <legend className="mb-1 text-sm font-semibold text-gray-800">
            Categorías o productos elegidos (cualquiera de ellos)
          </legend>
          <div>
            <p className={labelClass}>{PROMOTION_LABELS.categoryIds}</p>
            {categories.length === 0 ? (
              <p className="text-sm text-gray-600">No hay categorías todavía.</p>
            ) : (
              <div className="grid max-h-56 gap-1 overflow-y-auto rounded-lg border border-gray-200 p-2 sm:grid-cols-2">
                {categories.map((category) => (
                  <label key={category.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="categoryIds"
                      value={category.id}
                      defaultChecked={values.categoryIds.includes(category.id)}
                    />
                    {category.name}
                  </label>
                ))}
              </div>
            )}
            {errors.categoryIds ? <p className="mt-1 text-sm text-red-700">{errors.categoryIds}</p> : null}
          </div>
          <Field
            id="promotion-productSkus"
            label={PROMOTION_LABELS.productSkus}
            hint="Separados por comas o uno por línea, por ejemplo COL-ACE-0001."
            error={errors.productSkus}
          >
            <textarea
              id="promotion-productSkus"
              name="productSkus"
              rows={2}
              defaultValue={values.productSkus}
              aria-invalid={errors.productSkus ? true : undefined}
              aria-describedby={fieldDescribedBy('promotion-productSkus', errors.productSkus, true)}
              className={inputClass}
            />
          </Field>
        </fieldset>
        <TextInput
          name="minSubtotal"
          inputMode="numeric"
          hint="Opcional: el subtotal del carrito que se necesita, en pesos."
          {...props}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            name="startsAt"
            type="datetime-local"
            hint="Hora de Bogotá. Vacío: desde ya."
            {...props}
          />
          <TextInput
            name="endsAt"
            type="datetime-local"
            hint="Hora de Bogotá. Vacío: sin fecha de fin."
            {...props}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            name="maxUses"
            inputMode="numeric"
            hint="Pedidos en total. Vacío: sin límite."
            {...props}
          />
          <TextInput
            name="maxUsesPerCustomer"
            inputMode="numeric"
            hint="Por teléfono y correo. Vacío: sin límite."
            {...props}
          />
        </div>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name="combinable" defaultChecked={values.combinable} className="mt-1" />
          <span>
            {PROMOTION_LABELS.combinable}
            <span className="block text-xs text-gray-600">
              Si no, compite sola: el cliente recibe la que más le descuente. Solo se usa un código por
              pedido.
            </span>
          </span>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="active" defaultChecked={values.active} />
          {PROMOTION_LABELS.active}{' '}
          <span className="text-xs text-gray-600">(desmárcala para dejarla pausada)</span>
        </label>
        <div className="flex items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={navigation.state === 'submitting'}>
            {mode === 'edit' ? 'Guardar cambios' : 'Crear promoción'}
          </button>
          <Link to={ADMIN_PROMOTIONS_PATH} className="text-sm text-brand-700 underline">
            Cancelar
          </Link>
        </div>
      </AdminForm>
    </section>
  )
}
