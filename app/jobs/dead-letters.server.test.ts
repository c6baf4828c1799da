import { expect, test } from 'vitest'
import { describeFailedJob } from './dead-letters.server.ts'

test('each kind of job that ran out of retries is named in Spanish by what it was doing', () => {
  expect(describeFailedJob({ orderId: 'o-1', to: '573001112233' }, 1042)).toBe(
    'Aviso de WhatsApp del pedido #1042 a 573001112233',
  )
  expect(describeFailedJob({ claimId: 3, to: '573001112233' }, null)).toBe(
    'Aviso de WhatsApp de una solicitud de retracto o reversión a 573001112233',
  )
  expect(describeFailedJob({ orderId: 'o-1', claimId: 3 }, 1042)).toBe(
    'Reembolso en Mercado Pago del pedido #1042',
  )
  expect(describeFailedJob({ orderId: 'o-1', trigger: 'paid' }, 1042)).toBe(
    'Factura electrónica del pedido #1042',
  )
  expect(describeFailedJob({ orderId: 'o-1' }, 1042)).toBe('Nota crédito del pedido #1042')
  expect(describeFailedJob({ orderId: 'o-1', by: 'duena@vitrina.test' }, 1042)).toBe(
    'Guía de transportadora del pedido #1042',
  )
  expect(describeFailedJob({ paymentId: '99' }, null)).toBe('Notificación de pago de Mercado Pago 99')
  expect(describeFailedJob(null, null)).toBe('Tarea en segundo plano')
})
