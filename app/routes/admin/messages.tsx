import { ActionMessage } from '#app/components/admin/form-message.tsx'
import { noteAuditChanges } from '#app/modules/audit/changes.ts'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { MessagesRefused, saveMessageSettings } from '#app/modules/settings/message-settings.server.ts'
import {
  listMessageChanges,
  readMessageSettings,
  sendTestNotice,
} from '#app/modules/messages/messages.server.ts'
import {
  isMessageIntent,
  loadedMessages,
  MESSAGE_SETTING_LABELS,
  messageDefaults,
  messageFormValues,
  messagesAsFormValues,
  MESSAGES_TEXTS,
  shownMessageValue,
  type MessageFieldErrors,
} from '#app/modules/messages/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure, refusedAnswer } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { MessageChanges, MessagesForm, TestNoticeForm } from './messages/messages-form.tsx'
import type { Route } from './+types/messages'
import { formText } from '#app/utils/form-text.ts'

/**
 * /admin/mensajes ("Mensajes y Notificaciones"): the business numbers and template of the new-order
 * notice, the buyer's messages on the order's events, "Enviar prueba" and the latest changes.
 */

export const meta: Route.MetaFunction = () => [{ title: 'Mensajes y Notificaciones | Administración' }]

export async function loader({ context }: Route.LoaderArgs) {
  const { env, database, whatsapp } = servicesOf(context)
  const current = await readMessageSettings(database.db, messageDefaults(env.WHATSAPP_NOTIFY_NUMBERS))
  return {
    values: messagesAsFormValues(current),
    /** Posted back with the form: the save writes only what the admin changed from these. */
    loaded: JSON.stringify(current),
    /** WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set: messages go out on their own. */
    whatsappConfigured: whatsapp !== null,
    changes: await listMessageChanges(database.db),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const { env, database, whatsapp } = servicesOf(context)
  const intent = formText(form, 'intent')
  const defaults = messageDefaults(env.WHATSAPP_NOTIFY_NUMBERS)
  const values = intent === 'guardar' ? messageFormValues(form) : undefined
  const loaded = intent === 'guardar' ? formText(form, 'loaded') : null
  try {
    if (!isMessageIntent(intent))
      throw new Refusal(MESSAGES_TEXTS.badRequest, { status: 400, standsAlone: true })
    if (intent === 'probar') {
      const result = await sendTestNotice({ db: database.db, whatsapp }, defaults)
      // Nothing sent (no token, no numbers) or WhatsApp refused: said as a refusal, never as a success.
      return result.ok
        ? successAnswer(result.message, { intent })
        : refusedAnswer(result.message, 409, { intent })
    }
    const { changes } = await saveMessageSettings(
      database.db,
      defaults,
      values!,
      loadedMessages(loaded),
      admin.email,
    )
    noteAuditChanges(
      context,
      changes.map(({ key, before, after }) => ({
        subject: 'Mensajes y Notificaciones',
        label: MESSAGE_SETTING_LABELS[key],
        before: shownMessageValue(before),
        after: shownMessageValue(after),
      })),
    )
    return successAnswer(changes.length ? MESSAGES_TEXTS.saved : MESSAGES_TEXTS.unchanged, { intent })
  } catch (thrown) {
    const fieldErrors: MessageFieldErrors = thrown instanceof MessagesRefused ? thrown.errors : {}
    const unexpected = intent === 'probar' ? MESSAGES_TEXTS.testUnexpected : MESSAGES_TEXTS.unexpected
    // A refused form keeps comparing with what it was first loaded with.
    return formFailure(thrown, request, { unexpected }, { intent, values, fieldErrors, loaded })
  }
}

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { values, loaded, whatsappConfigured, changes } = loaderData
  const failed = actionData && !actionData.ok && actionData.intent === 'guardar' ? actionData : null
  return (
    <section aria-labelledby="messages-title" className="flex flex-col gap-6">
      <div>
        <h1 id="messages-title" className="text-2xl font-semibold">
          Mensajes y Notificaciones
        </h1>
        <p className="text-sm text-gray-600">
          Los avisos por WhatsApp a la tienda y al cliente. Los cambios se aplican desde el próximo pedido.
        </p>
      </div>
      <p
        className={`rounded-lg border px-3 py-2 text-sm ${whatsappConfigured ? 'border-green-200 bg-green-50 text-green-900' : 'border-amber-200 bg-amber-50 text-amber-900'}`}
        data-testid="whatsapp-status"
      >
        {whatsappConfigured
          ? 'WhatsApp está configurado: los mensajes se envían solos con las plantillas de abajo.'
          : 'WhatsApp no está configurado en el servidor (WHATSAPP_TOKEN y WHATSAPP_PHONE_NUMBER_ID): nada se envía solo. Cada mensaje queda en el historial del pedido con un enlace para enviarlo a mano.'}
      </p>
      <ActionMessage answer={actionData} />
      <MessagesForm
        key={`messages-${actionData?.intent === 'guardar' ? actionData.at : 0}`}
        values={failed?.values ?? values}
        loaded={failed?.loaded ?? loaded}
        errors={failed?.fieldErrors ?? {}}
      />
      <TestNoticeForm />
      <MessageChanges changes={changes} />
    </section>
  )
}
