import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import type { DeskOrderView } from './desk-view.ts'
import { Section } from './section.tsx'

/** Everything that happened to the order, oldest first. */
export function TimelineSection({ events }: { events: DeskOrderView['events'] }) {
  return (
    <Section title="Historial" testId="order-timeline">
      <ol className="flex flex-col gap-2 text-sm">
        {events.map((event) => (
          <li
            key={event.id}
            data-testid="order-event"
            data-type={event.type}
            className="border-l-2 border-brand-200 pl-3"
          >
            <p>{event.message}</p>
            {event.chatUrl ? (
              <a
                href={event.chatUrl}
                target="_blank"
                rel="noreferrer"
                className="text-sm font-medium text-brand-700 underline"
                data-testid="order-event-chat"
              >
                Enviar por WhatsApp
              </a>
            ) : null}
            <p className="text-xs text-gray-500">
              {formatOrderDate(event.createdAt)} · {event.createdBy ?? 'sistema'}
            </p>
          </li>
        ))}
      </ol>
    </Section>
  )
}
