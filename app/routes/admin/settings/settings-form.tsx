import type { OnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import { useEffect } from 'react'
import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldDescribedBy, fieldErrorId } from '#app/components/admin/field.tsx'
import { inputClass, labelClass, primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { VAT_LABELS } from '#app/utils/vat.ts'
import type { ShippingZoneChoice } from '#app/modules/settings/settings.server.ts'
import {
  CARRIER_QUOTE_CHOICES,
  CARRIER_QUOTE_LABELS,
  COMPLETE_ON_DELIVERY_LABELS,
  DEFAULT_VAT_CHOICES,
  INVOICE_TRIGGER_LABELS,
  INVOICE_TRIGGERS,
  PAYMENT_METHOD_SETTING_LABELS,
  SESSION_LIMIT_HINTS,
  SETTING_LABELS,
  TRANSFER_DEADLINE_BOUNDS,
  YES_NO,
  type SettingKey,
  type SettingsFieldErrors,
  type SettingsFormValues,
} from '#app/modules/settings/validators.ts'
import { PARCEL_BOUNDS } from '#app/utils/parcel-bounds.ts'
import { cardClass } from './card.ts'

/**
 * The store's settings (shipping, WhatsApp contact, seller identification, hold and session limits,
 * electronic invoices, shipping with carriers, ways to pay), saved together.
 */

/** Said when Envia is not set up: the checkout and the orders work without it. */
export const CARRIERS_NOT_CONFIGURED =
  'Envia no está configurado (ENVIA_TOKEN): el checkout usa el costo fijo y los pedidos no generan guías (se marcan enviados a mano).'

/** Said when Envia is set up but the pickup is not complete yet. */
export const CARRIER_ORIGIN_INCOMPLETE =
  'Para cotizar en vivo y generar guías, guarda la dirección, el municipio y el teléfono de recogida.'

function TextField({
  name,
  values,
  errors,
  type = 'text',
  hint,
  inputMode,
  autoComplete,
}: {
  name: SettingKey
  values: SettingsFormValues
  errors: SettingsFieldErrors
  type?: string
  hint?: string
  inputMode?: 'numeric' | 'tel' | 'email'
  autoComplete?: string
}) {
  const inputId = `setting-${name}`
  const error = errors[name]
  return (
    <Field id={inputId} label={SETTING_LABELS[name]} hint={hint} error={error}>
      <input
        id={inputId}
        name={name}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete ?? 'off'}
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(inputId, error, Boolean(hint))}
        className={inputClass}
      />
    </Field>
  )
}

/** A setting chosen from a list: its options in order, each worded by `labels`. */
function SelectField<Choice extends string>({
  name,
  choices,
  labels,
  values,
  errors,
  hint,
}: {
  name: SettingKey
  choices: readonly Choice[]
  labels: Record<Choice, string>
  values: SettingsFormValues
  errors: SettingsFieldErrors
  hint?: string
}) {
  const selectId = `setting-${name}`
  const error = errors[name]
  return (
    <Field id={selectId} label={SETTING_LABELS[name]} hint={hint} error={error}>
      <select
        id={selectId}
        name={name}
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(selectId, error, Boolean(hint))}
        className={inputClass}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {labels[choice]}
          </option>
        ))}
      </select>
    </Field>
  )
}

export function SettingsForm({
  values,
  loaded,
  errors,
  municipalityChoices,
  carriersConfigured,
  carrierOriginComplete,
  paymentProviders,
}: {
  values: SettingsFormValues
  loaded: string
  errors: SettingsFieldErrors
  /** Each department with its municipalities: the pickup municipality's select. */
  municipalityChoices: ShippingZoneChoice[]
  /** Envia is set up (ENVIA_TOKEN). */
  carriersConfigured: boolean
  /** The pickup street, municipality and phone are all saved. */
  carrierOriginComplete: boolean
  /** Which online providers the server has (their keys, or the local simulation). */
  paymentProviders: Record<OnlinePaymentMethod, boolean>
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'guardar'
  const props = { values, errors }
  // After a refusal the form is rebuilt with what was typed: take the admin to the first bad field.
  useEffect(() => {
    document.querySelector<HTMLElement>('[data-testid="settings-form"] [aria-invalid="true"]')?.focus()
  }, [])
  return (
    <AdminForm method="post" className="flex flex-col gap-4" data-testid="settings-form" noValidate>
      <input type="hidden" name="intent" value="guardar" />
      <input type="hidden" name="loaded" value={loaded} />
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Envío</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="shippingCost"
            inputMode="numeric"
            hint="Pesos enteros; 0 = envío gratis en todas las compras."
            {...props}
          />
          <TextField
            name="freeShippingThreshold"
            inputMode="numeric"
            hint="El envío es gratis cuando el subtotal supera este valor."
            {...props}
          />
        </div>
      </fieldset>
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Contacto por WhatsApp</legend>
        <TextField
          name="whatsappNumber"
          type="tel"
          inputMode="tel"
          hint="Celular con indicativo 57, por ejemplo 573001234567."
          {...props}
        />
        <Field
          id="setting-whatsappText"
          label={SETTING_LABELS.whatsappText}
          hint="El texto con el que se abre el chat desde la tienda."
          error={errors.whatsappText}
        >
          <textarea
            id="setting-whatsappText"
            name="whatsappText"
            rows={2}
            defaultValue={values.whatsappText}
            aria-invalid={errors.whatsappText ? true : undefined}
            aria-describedby={errors.whatsappText ? fieldErrorId('setting-whatsappText') : undefined}
            className={inputClass}
          />
        </Field>
      </fieldset>
      <fieldset className={cardClass}>
        <legend className="float-left mb-1 text-lg font-semibold">Identificación del vendedor</legend>
        <p className="-mt-2 text-sm text-gray-600">Se muestra en el pie de página (Ley 1480 de 2011).</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="sellerLegalName" autoComplete="organization" {...props} />
          <TextField name="sellerNit" hint="Por ejemplo 901.234.567-8." {...props} />
          <TextField name="sellerAddress" autoComplete="street-address" {...props} />
          <TextField name="sellerEmail" type="email" inputMode="email" autoComplete="email" {...props} />
        </div>
        <TextField name="deliveryTime" hint="Por ejemplo: Entrega de 1 a 5 días hábiles." {...props} />
      </fieldset>
      <fieldset className={cardClass} data-testid="hold-limits">
        <legend className="float-left mb-1 text-lg font-semibold">Pedidos sin pagar ni confirmar</legend>
        <p className="-mt-2 text-sm text-gray-600">
          Cuánto puede apartar un cliente con pedidos contra entrega sin confirmar o pagos en línea sin
          terminar, que guardan unidades hasta vencer. Un pedido que pasa el límite de unidades recibe la
          invitación a escribir por WhatsApp.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="maxOpenOrders" inputMode="numeric" hint="Por número de teléfono." {...props} />
          <TextField
            name="maxOpenUnits"
            inputMode="numeric"
            hint="En total, por número de teléfono."
            {...props}
          />
          <TextField
            name="maxOpenOrdersPerAddress"
            inputMode="numeric"
            hint="Por conexión a internet; más alto, porque muchos celulares comparten una."
            {...props}
          />
          <TextField
            name="maxOpenUnitsPerAddress"
            inputMode="numeric"
            hint="En total, por conexión a internet."
            {...props}
          />
        </div>
      </fieldset>
      <fieldset className={cardClass} data-testid="session-limits">
        <legend className="float-left mb-1 text-lg font-semibold">Sesiones de administración</legend>
        <p className="-mt-2 text-sm text-gray-600">
          Una sesión del panel se cierra cuando pasa este tiempo sin ninguna actividad, o cuando cumple su
          duración máxima desde que se inició, lo que ocurra primero. Al volver, la página de inicio de sesión
          dice cuál de los dos la cerró.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="adminIdleMinutes"
            inputMode="numeric"
            hint={SESSION_LIMIT_HINTS.adminIdleMinutes}
            {...props}
          />
          <TextField
            name="adminSessionHours"
            inputMode="numeric"
            hint={SESSION_LIMIT_HINTS.adminSessionHours}
            {...props}
          />
        </div>
      </fieldset>
      <fieldset className={cardClass} data-testid="invoice-settings">
        <legend className="float-left mb-1 text-lg font-semibold">Facturación electrónica</legend>
        <p className="-mt-2 text-sm text-gray-600">
          Las facturas electrónicas de la DIAN de los pedidos. Cada producto puede tener su propio IVA; los
          que siguen la configuración usan el de aquí.
        </p>
        <fieldset
          aria-describedby={errors.invoiceTrigger ? fieldErrorId('setting-invoiceTrigger') : undefined}
        >
          <legend className={labelClass}>{SETTING_LABELS.invoiceTrigger}</legend>
          <div className="flex flex-col gap-1">
            {INVOICE_TRIGGERS.map((trigger) => (
              <label
                key={trigger}
                className="inline-flex min-h-9 cursor-pointer items-center gap-2 rounded-lg px-1 text-sm hover:bg-brand-50"
              >
                <input
                  type="radio"
                  name="invoiceTrigger"
                  value={trigger}
                  defaultChecked={values.invoiceTrigger === trigger}
                  aria-invalid={errors.invoiceTrigger ? true : undefined}
                  className="size-5 shrink-0 accent-brand-600"
                />
                {INVOICE_TRIGGER_LABELS[trigger]}
              </label>
            ))}
          </div>
          {errors.invoiceTrigger ? (
            <p id={fieldErrorId('setting-invoiceTrigger')} className="mt-1 text-sm text-red-700">
              {errors.invoiceTrigger}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            name="defaultVat"
            choices={DEFAULT_VAT_CHOICES}
            labels={VAT_LABELS}
            values={values}
            errors={errors}
          />
        </div>
      </fieldset>
      <CarrierFieldset
        values={values}
        errors={errors}
        municipalityChoices={municipalityChoices}
        carriersConfigured={carriersConfigured}
        carrierOriginComplete={carrierOriginComplete}
      />
      <PaymentFieldset values={values} errors={errors} providers={paymentProviders} />
      <div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar configuración'}
        </button>
      </div>
    </AdminForm>
  )
}

const sizeHint = (bounds: { min: number; max: number }, unit: string) =>
  `Número entero de ${bounds.min} a ${bounds.max.toLocaleString('es-CO')} ${unit}.`

/** The default package's fields, in the form's order, with their hints. */
const PACKAGE_SETTINGS = [
  ['parcelWeightGrams', sizeHint(PARCEL_BOUNDS.weightGrams, 'gramos')],
  ['parcelLengthCm', sizeHint(PARCEL_BOUNDS.centimetres, 'cm')],
  ['parcelWidthCm', sizeHint(PARCEL_BOUNDS.centimetres, 'cm')],
  ['parcelHeightCm', sizeHint(PARCEL_BOUNDS.centimetres, 'cm')],
] as const satisfies readonly (readonly [SettingKey, string])[]

/**
 * "Envíos con transportadora": how the checkout prices shipping, where the carrier picks parcels up,
 * the package of a product without measures of its own, and whether delivery completes the order.
 */
function CarrierFieldset({
  values,
  errors,
  municipalityChoices,
  carriersConfigured,
  carrierOriginComplete,
}: {
  values: SettingsFormValues
  errors: SettingsFieldErrors
  municipalityChoices: ShippingZoneChoice[]
  carriersConfigured: boolean
  carrierOriginComplete: boolean
}) {
  const props = { values, errors }
  const notice = !carriersConfigured
    ? CARRIERS_NOT_CONFIGURED
    : !carrierOriginComplete
      ? CARRIER_ORIGIN_INCOMPLETE
      : null
  return (
    <fieldset className={cardClass} data-testid="carrier-settings">
      <legend className="float-left mb-1 text-lg font-semibold">Envíos con transportadora</legend>
      <p className="-mt-2 text-sm text-gray-600">
        Cotizaciones en vivo y guías con Envia. El remitente de la guía es la razón social, el NIT y el correo
        de contacto de «Identificación del vendedor»; las cotizaciones y las guías necesitan Envia configurado
        (ENVIA_TOKEN).
      </p>
      {notice ? (
        <p
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="carrier-notice"
        >
          {notice}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          name="carrierQuotes"
          choices={CARRIER_QUOTE_CHOICES}
          labels={CARRIER_QUOTE_LABELS}
          values={values}
          errors={errors}
          hint="Si la cotización en vivo no responde, el checkout usa el costo fijo."
        />
        <SelectField
          name="completeOnDelivery"
          choices={YES_NO}
          labels={COMPLETE_ON_DELIVERY_LABELS}
          values={values}
          errors={errors}
          hint="Solo para pedidos enviados con guía."
        />
      </div>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">Recogida</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="carrierOriginStreet"
            autoComplete="street-address"
            hint="Donde la transportadora recoge los paquetes, por ejemplo Calle 10 # 43-12, local 5."
            {...props}
          />
          <Field
            id="setting-carrierOriginMunicipality"
            label={SETTING_LABELS.carrierOriginMunicipality}
            error={errors.carrierOriginMunicipality}
          >
            <select
              id="setting-carrierOriginMunicipality"
              name="carrierOriginMunicipality"
              defaultValue={values.carrierOriginMunicipality}
              aria-invalid={errors.carrierOriginMunicipality ? true : undefined}
              aria-describedby={fieldDescribedBy(
                'setting-carrierOriginMunicipality',
                errors.carrierOriginMunicipality,
              )}
              className={inputClass}
            >
              <option value="">Sin definir</option>
              {municipalityChoices.map((department) => (
                <optgroup key={department.code} label={department.name}>
                  {department.municipalities.map((municipality) => (
                    <option key={municipality.code} value={municipality.code}>
                      {municipality.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </Field>
          <TextField
            name="carrierOriginPhone"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            hint="Celular o fijo de 10 dígitos, por ejemplo 300 123 4567 o 601 234 5678."
            {...props}
          />
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">Paquete por defecto</legend>
        <p className="-mt-2 text-sm text-gray-600">
          El peso y las medidas de los productos que no tienen las suyas en «Empaque para envíos».
        </p>
        <div className="grid gap-4 sm:grid-cols-4">
          {PACKAGE_SETTINGS.map(([name, hint]) => (
            <TextField key={name} name={name} inputMode="numeric" hint={hint} {...props} />
          ))}
        </div>
      </fieldset>
    </fieldset>
  )
}

/**
 * "Pagos": which ways to pay the checkout offers, and where a transfer or Bre-B payment goes. The
 * online providers only appear once their keys are configured on the server.
 */
function PaymentFieldset({
  values,
  errors,
  providers,
}: {
  values: SettingsFormValues
  errors: SettingsFieldErrors
  providers: Record<OnlinePaymentMethod, boolean>
}) {
  const props = { values, errors }
  const unconfigured = (name: string, keys: string) =>
    ` Sin configurar en este servidor: no se ofrece hasta que se configuren ${keys} (${name}).`
  return (
    <fieldset className={cardClass} data-testid="payment-settings">
      <legend className="float-left mb-1 text-lg font-semibold">Pagos</legend>
      <p className="-mt-2 text-sm text-gray-600">
        Las formas de pago que ofrece el checkout, además de contra entrega. Mercado Pago y Wompi solo se
        muestran cuando estén configurados (sus claves en el servidor).
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          name="paymentMercadoPago"
          choices={YES_NO}
          labels={PAYMENT_METHOD_SETTING_LABELS}
          {...props}
          hint={`Tarjetas, PSE y efectivo, en la página de Mercado Pago.${providers.mercadopago ? '' : unconfigured('Mercado Pago', 'MP_ACCESS_TOKEN y MP_WEBHOOK_SECRET')}`}
        />
        <SelectField
          name="paymentWompi"
          choices={YES_NO}
          labels={PAYMENT_METHOD_SETTING_LABELS}
          {...props}
          hint={`PSE, Nequi, Bancolombia y tarjetas, en la página de Wompi.${providers.wompi ? '' : unconfigured('Wompi', 'las cuatro claves WOMPI_*')}`}
        />
        <SelectField
          name="paymentTransfer"
          choices={YES_NO}
          labels={PAYMENT_METHOD_SETTING_LABELS}
          {...props}
          hint="El cliente paga desde la app de su banco y sube el comprobante; tú confirmas el pago en el pedido."
        />
      </div>
      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-base font-semibold">Transferencia / Bre-B</legend>
        <p className="-mt-2 text-sm text-gray-600">
          Lo que ve el cliente para pagar: escribe tu llave Bre-B, los datos de tu cuenta, o ambos.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="transferBrebKey"
            hint="Tu celular, correo, cédula o llave alfanumérica registrada en Bre-B."
            {...props}
          />
          <TextField
            name="transferDeadlineHours"
            inputMode="numeric"
            hint={`Horas, de ${TRANSFER_DEADLINE_BOUNDS.min} a ${TRANSFER_DEADLINE_BOUNDS.max}. Después, el pedido sin pagar se cancela y sus productos vuelven a la tienda.`}
            {...props}
          />
        </div>
        <Field
          id="setting-transferAccount"
          label={SETTING_LABELS.transferAccount}
          hint="Banco, tipo de cuenta, número y titular, por ejemplo: Bancolombia, ahorros 123-456789-00, Tienda SAS, NIT 901.234.567-8."
          error={errors.transferAccount}
        >
          <textarea
            id="setting-transferAccount"
            name="transferAccount"
            rows={3}
            defaultValue={values.transferAccount}
            aria-invalid={errors.transferAccount ? true : undefined}
            aria-describedby={fieldDescribedBy('setting-transferAccount', errors.transferAccount, true)}
            className={inputClass}
          />
        </Field>
      </fieldset>
    </fieldset>
  )
}
