import { data } from 'react-router'
import { receiveWompiEvent } from '#app/modules/payment/webhook.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { wompiEventsSecretOf } from '#app/services.server.ts'
import type { Route } from './+types/wompi-events'

/** Wompi's events (and its simulator's): checked and remembered; a job does the work. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') throw data(null, { status: 405 })
  const services = servicesOf(context)
  const answer = await receiveWompiEvent(services.paymentDeps, wompiEventsSecretOf(services), request)
  return answer.status === 200 ? answer.body : data(answer.body, { status: answer.status })
}

export function loader() {
  throw data(null, { status: 405 })
}
