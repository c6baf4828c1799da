import { eq, like } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { whatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { settingChanges, settings } from '#app/modules/settings/schema.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { startWhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { MessagesRefused, saveMessageSettings } from '#app/modules/settings/message-settings.server.ts'
import {
  listMessageChanges,
  readMessageSettings,
  readNotifyNumbers,
  sendTestNotice,
  TEST_NOTICE_PARAMETERS,
} from './messages.server.ts'
import {
  checkMessageForm,
  messageDefaults,
  messagesAsFormValues,
  MESSAGES_TEXTS,
  type MessageFormValues,
  type MessageSettings,
} from './validators.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startWhatsAppStandIn)
const OWNER = 'duena@vitrina.test'

const whatsapp = () =>
  whatsAppClient({ baseUrl: standIn().url, token: standIn().token, phoneNumberId: standIn().phoneNumberId })

/** The environment's first-run numbers, as the server reads them. */
const envDefaults = () =>
  messageDefaults(parseEnv({ WHATSAPP_NOTIFY_NUMBERS: '573001112233, 573004445566' }).WHATSAPP_NOTIFY_NUMBERS)

async function save(
  change: Partial<MessageFormValues>,
  loaded?: MessageSettings,
  defaults: MessageSettings = envDefaults(),
) {
  const current = loaded ?? (await readMessageSettings(t.db, defaults))
  return saveMessageSettings(t.db, defaults, { ...messagesAsFormValues(current), ...change }, current, OWNER)
}

async function clearSaved() {
  await t.db.delete(settings).where(like(settings.key, 'messages.%'))
}

describe('the settings', () => {
  test('before any save: the numbers from WHATSAPP_NOTIFY_NUMBERS, "nuevo_pedido" in Spanish, buyer messages off', async () => {
    await clearSaved()
    const current = await readMessageSettings(t.db, envDefaults())
    expect(current).toMatchObject({
      notifyNumbers: ['573001112233', '573004445566'],
      newOrderTemplate: 'nuevo_pedido',
      newOrderLanguage: 'es',
      confirmedOn: false,
      confirmedTemplate: 'pedido_confirmado',
      shippedOn: false,
      shippedTemplate: 'pedido_enviado',
      completedOn: false,
      completedTemplate: 'pedido_entregado',
      cancelledOn: false,
      cancelledTemplate: 'pedido_cancelado',
      cancelledLanguage: 'es',
    })
    expect(await readNotifyNumbers(t.db, ['573001112233'])).toEqual(['573001112233'])
  })

  test('a save writes only what changed, with its history, and wins over the environment from then on', async () => {
    await clearSaved()
    const { changes } = await save({
      notifyNumbers: '300 123 4567\n+57 310-987-6543\n3001234567',
      shippedOn: 'on',
      shippedTemplate: 'envio_en_camino',
      shippedLanguage: 'es_CO',
    })
    expect(changes.map((change) => change.key).sort()).toEqual(
      ['notifyNumbers', 'shippedLanguage', 'shippedOn', 'shippedTemplate'].sort(),
    )
    const current = await readMessageSettings(t.db, envDefaults())
    expect(current.notifyNumbers).toEqual(['573001234567', '573109876543'])
    expect(current).toMatchObject({
      shippedOn: true,
      shippedTemplate: 'envio_en_camino',
      shippedLanguage: 'es_CO',
    })
    // Other defaults still follow their default.
    expect(current.confirmedOn).toBe(false)
    expect(await readNotifyNumbers(t.db, ['573000000000'])).toEqual(['573001234567', '573109876543'])

    const history = await listMessageChanges(t.db)
    const numbers = history.find((change) => change.key === 'notifyNumbers')!
    expect(numbers).toMatchObject({
      oldValue: ['573001112233', '573004445566'],
      newValue: ['573001234567', '573109876543'],
      changedBy: OWNER,
    })
    const rows = await t.db.select().from(settingChanges).where(eq(settingChanges.key, 'messages.shippedOn'))
    expect(rows.at(-1)).toMatchObject({ oldValue: false, newValue: true, changedBy: OWNER })

    // The same values again: nothing written.
    expect((await save({})).changes).toEqual([])
  })

  test('an empty list is kept as empty (nobody gets the notice), not as "never saved"', async () => {
    await clearSaved()
    await save({ notifyNumbers: '' })
    expect(await readNotifyNumbers(t.db, ['573001112233'])).toEqual([])
  })

  test('a value written by hand with the wrong shape counts as never saved', async () => {
    await clearSaved()
    await t.db.insert(settings).values([
      { key: 'messages.notifyNumbers', value: ['12345'] },
      { key: 'messages.confirmedOn', value: 'sí' },
      { key: 'messages.newOrderTemplate', value: 'Nuevo Pedido' },
    ])
    const current = await readMessageSettings(t.db, envDefaults())
    expect(current).toMatchObject({
      notifyNumbers: ['573001112233', '573004445566'],
      confirmedOn: false,
      newOrderTemplate: 'nuevo_pedido',
    })
  })

  test('a wrong field refuses the whole form, in Spanish, and writes nothing', async () => {
    await clearSaved()
    const refused = await save({
      notifyNumbers: '3001234567\n601 234 5678',
      newOrderTemplate: 'Nuevo Pedido',
      completedLanguage: 'español',
      cancelledOn: 'on',
    }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(MessagesRefused)
    expect((refused as MessagesRefused).message).toBe(MESSAGES_TEXTS.invalid)
    expect((refused as MessagesRefused).errors).toEqual({
      notifyNumbers:
        '"601 234 5678" no es un celular colombiano: 10 dígitos que empiezan por 3, con o sin 57 (por ejemplo 300 123 4567).',
      newOrderTemplate:
        'Escribe el nombre de la plantilla como está en WhatsApp Manager: minúsculas, números y guion bajo (por ejemplo pedido_enviado).',
      completedLanguage: 'Escribe el código de idioma de la plantilla: es, es_CO, es_MX, en_US…',
    })
    expect(await t.db.select().from(settings).where(like(settings.key, 'messages.%'))).toEqual([])
  })

  test('at most five numbers', () => {
    const values = messagesAsFormValues(messageDefaults([]))
    const six = ['3001111111', '3002222222', '3003333333', '3004444444', '3005555555', '3006666666']
    expect(checkMessageForm({ ...values, notifyNumbers: six.join(', ') })).toEqual({
      ok: false,
      errors: { notifyNumbers: 'Máximo 5 números.' },
    })
    expect(checkMessageForm({ ...values, notifyNumbers: six.slice(1).join('; ') }).ok).toBe(true)
  })

  test('a field someone else changed since the form loaded refuses the save', async () => {
    await clearSaved()
    const loaded = await readMessageSettings(t.db, envDefaults())
    await save({ confirmedTemplate: 'confirmado_a' }, loaded)
    await expect(save({ confirmedTemplate: 'confirmado_b' }, loaded)).rejects.toMatchObject({ status: 409 })
    expect((await readMessageSettings(t.db, envDefaults())).confirmedTemplate).toBe('confirmado_a')
    // A field only the other save changed does not stop this one.
    await save({ completedOn: 'on' }, loaded)
    expect(await readMessageSettings(t.db, envDefaults())).toMatchObject({
      confirmedTemplate: 'confirmado_a',
      completedOn: true,
    })
  })

  test('a form posted without what it was loaded with is refused', async () => {
    const defaults = envDefaults()
    await expect(
      saveMessageSettings(t.db, defaults, messagesAsFormValues(defaults), null, OWNER),
    ).rejects.toMatchObject({ message: MESSAGES_TEXTS.stale, status: 400 })
  })
})

describe('"Enviar prueba"', () => {
  test('without WhatsApp configured nothing is sent, and the answer says why', async () => {
    const result = await sendTestNotice({ db: t.db, whatsapp: null }, envDefaults())
    expect(result).toEqual({ ok: false, reason: 'sin-whatsapp', message: MESSAGES_TEXTS.testNoToken })
    expect(result.message).toContain('No se envió nada')
    expect(result.message).toContain('WHATSAPP_TOKEN')
    expect(standIn().requests).toHaveLength(0)
  })

  test('without numbers nothing is sent', async () => {
    await clearSaved()
    await save({ notifyNumbers: '' })
    const result = await sendTestNotice({ db: t.db, whatsapp: whatsapp() }, envDefaults())
    expect(result).toMatchObject({ ok: false, reason: 'sin-numeros' })
    expect(standIn().requests).toHaveLength(0)
  })

  test('sends the saved new-order template to each saved number, as a Cloud API template message', async () => {
    await clearSaved()
    await save({
      notifyNumbers: '3001234567, 3109876543',
      newOrderTemplate: 'aviso_pedido',
      newOrderLanguage: 'es_CO',
    })
    const result = await sendTestNotice({ db: t.db, whatsapp: whatsapp() }, envDefaults())
    expect(result.ok).toBe(true)
    expect(result.message).toBe('Prueba enviada a 573001234567, 573109876543. Revisa que haya llegado.')
    expect(standIn().sent.map((sent) => sent.to)).toEqual(['573001234567', '573109876543'])
    expect(standIn().requests[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      to: '573001234567',
      type: 'template',
      template: {
        name: 'aviso_pedido',
        language: { code: 'es_CO' },
        components: [
          { type: 'body', parameters: TEST_NOTICE_PARAMETERS.map((text) => ({ type: 'text', text })) },
        ],
      },
    })
  })

  test('what WhatsApp refused is said, number by number', async () => {
    await clearSaved()
    await save({ notifyNumbers: '3001234567, 3109876543' })
    standIn().failNext(1, 132001)
    const result = await sendTestNotice({ db: t.db, whatsapp: whatsapp() }, envDefaults())
    expect(result.ok).toBe(false)
    expect(result.message).toBe(
      'La prueba no se pudo enviar: a 573001234567: (#132001) Template name does not exist in the translation. Sí llegó a 573109876543.',
    )
    expect(standIn().sent.map((sent) => sent.to)).toEqual(['573109876543'])
  })
})
