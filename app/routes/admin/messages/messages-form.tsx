import { useEffect } from 'react'
import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { Field, fieldDescribedBy } from '#app/components/admin/field.tsx'
import { inputClass, primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { ChangeHistory, type HistoryRow } from '#app/components/admin/change-history.tsx'
import {
  BUYER_EVENT_LABELS,
  BUYER_EVENT_PARAMETERS,
  BUYER_EVENT_WHEN,
  BUYER_EVENTS,
  buyerKeys,
  MESSAGE_SETTING_LABELS,
  NEW_ORDER_PARAMETERS,
  shownMessageValue,
  type MessageFieldErrors,
  type MessageFormValues,
  type MessageSettingKey,
} from '#app/modules/messages/validators.ts'

const cardClass = 'flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm'

function TextField({
  name,
  label,
  values,
  errors,
  hint,
}: {
  name: MessageSettingKey
  label: string
  values: MessageFormValues
  errors: MessageFieldErrors
  hint?: string
}) {
  const id = `message-${name}`
  const error = errors[name]
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        name={name}
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        defaultValue={values[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldDescribedBy(id, error, Boolean(hint))}
        className={inputClass}
      />
    </Field>
  )
}

/** What the template receives, as WhatsApp Manager numbers it: {{1}} nombre del cliente… */
function Parameters({ names, testId }: { names: readonly string[]; testId: string }) {
  return (
    <div className="text-sm text-gray-700">
      <p className="font-medium">Variables de la plantilla</p>
      <ul className="mt-1 flex flex-col gap-0.5" data-testid={testId}>
        {names.map((name, index) => (
          <li key={name}>
            <code className="rounded bg-brand-50 px-1 text-brand-800">{`{{${index + 1}}}`}</code> {name}
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The whole page's settings, saved together. */
export function MessagesForm({
  values,
  loaded,
  errors,
}: {
  values: MessageFormValues
  loaded: string
  errors: MessageFieldErrors
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'guardar'
  const props = { values, errors }
  // After a refusal the form is rebuilt with what was typed: take the admin to the first bad field.
  useEffect(() => {
    document.querySelector<HTMLElement>('[data-testid="messages-form"] [aria-invalid="true"]')?.focus()
  }, [])
  const numbersError = errors.notifyNumbers
  return (
    <AdminForm method="post" className="flex flex-col gap-4" data-testid="messages-form" noValidate>
      <input type="hidden" name="intent" value="guardar" />
      <input type="hidden" name="loaded" value={loaded} />
      <fieldset className={cardClass} data-testid="new-order-notice">
        <legend className="float-left mb-1 text-lg font-semibold">Aviso de pedido nuevo (a la tienda)</legend>
        <p className="-mt-2 text-sm text-gray-600">
          Cada pedido nuevo avisa a estos números. También reciben las solicitudes de retracto y reversión.
        </p>
        <Field
          id="message-notifyNumbers"
          label={MESSAGE_SETTING_LABELS.notifyNumbers}
          hint="Uno por línea: celulares colombianos, por ejemplo 300 123 4567. Vacío: nadie recibe el aviso."
          error={numbersError}
        >
          <textarea
            id="message-notifyNumbers"
            name="notifyNumbers"
            rows={3}
            inputMode="tel"
            defaultValue={values.notifyNumbers}
            aria-invalid={numbersError ? true : undefined}
            aria-describedby={fieldDescribedBy('message-notifyNumbers', numbersError, true)}
            className={inputClass}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField name="newOrderTemplate" label="Plantilla" {...props} />
          <TextField name="newOrderLanguage" label="Idioma" hint="es, es_CO, es_MX…" {...props} />
        </div>
        <Parameters names={NEW_ORDER_PARAMETERS} testId="parameters-newOrder" />
      </fieldset>
      <div className={cardClass}>
        <h2 className="text-lg font-semibold">Mensajes al cliente</h2>
        <p className="-mt-2 text-sm text-gray-600">
          Plantillas de WhatsApp aprobadas en WhatsApp Manager, con las variables en este orden. Sin WhatsApp
          configurado, el historial del pedido muestra un enlace para enviar el mensaje a mano.
        </p>
        {BUYER_EVENTS.map((event) => {
          const keys = buyerKeys(event)
          return (
            <fieldset
              key={event}
              className="flex flex-col gap-3 border-t border-brand-100 pt-4"
              data-testid={`buyer-message-${event}`}
            >
              <legend className="sr-only">{BUYER_EVENT_LABELS[event]}</legend>
              <div>
                <label className="flex items-center gap-2 font-semibold">
                  <input
                    type="checkbox"
                    name={keys.on}
                    defaultChecked={values[keys.on] === 'on'}
                    className="size-5"
                  />
                  {BUYER_EVENT_LABELS[event]}
                </label>
                <p className="mt-1 text-sm text-gray-600">{BUYER_EVENT_WHEN[event]}</p>
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField name={keys.template} label="Plantilla" {...props} />
                <TextField name={keys.language} label="Idioma" {...props} />
              </div>
              <Parameters names={BUYER_EVENT_PARAMETERS[event]} testId={`parameters-${event}`} />
            </fieldset>
          )
        })}
      </div>
      <div>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar'}
        </button>
      </div>
    </AdminForm>
  )
}

/** "Enviar prueba": the new-order template, as saved, to the saved numbers. */
export function TestNoticeForm() {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'probar'
  return (
    <AdminForm method="post" className={cardClass} data-testid="test-notice">
      <input type="hidden" name="intent" value="probar" />
      <div>
        <h2 className="text-lg font-semibold">Enviar prueba</h2>
        <p className="text-sm text-gray-600">
          Envía el aviso de pedido nuevo, como está guardado, a los números guardados, con datos de ejemplo.
        </p>
      </div>
      <div>
        <button type="submit" className={secondaryButtonClass} disabled={busy}>
          {busy ? 'Enviando…' : 'Enviar prueba'}
        </button>
      </div>
    </AdminForm>
  )
}

export function MessageChanges({ changes }: { changes: (HistoryRow & { key: MessageSettingKey })[] }) {
  return (
    <ChangeHistory
      changes={changes}
      labelOf={(change) => MESSAGE_SETTING_LABELS[change.key]}
      shown={(_, value) => shownMessageValue(value) ?? ''}
      testId="message-change"
      className={cardClass}
    />
  )
}
