import { Fragment } from 'react'
import { Link } from 'react-router'
import {
  HELP_GUIDE,
  HELP_SECTIONS,
  HELP_TOPICS,
  type HelpBlock,
  type HelpSection,
} from '#app/components/admin/help-guide.ts'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, roleMayOpen, type Role } from '#app/modules/auth/roles.ts'
import type { Route } from './+types/help'

/** /admin/ayuda: the owner's guide (issue 27), open to the whole team; the header's "?" links here. */

export const meta: Route.MetaFunction = () => [{ title: 'Ayuda | Administración' }]

/** The guide is static; the reader's role only says which sections they may open. */
export function loader({ context }: Route.LoaderArgs) {
  return { role: signedInAdminOf(context).role }
}

const TOC_ID = 'indice'

/** Text with `code` between backticks (commands, file names). */
function Inline({ text }: { text: string }) {
  return text.split('`').map((part, index) =>
    index % 2 === 1 ? (
      <code key={index} className="rounded bg-brand-50 px-1 py-0.5 font-mono text-[0.85em] break-all">
        {part}
      </code>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    ),
  )
}

function Block({ block }: { block: HelpBlock }) {
  switch (block.kind) {
    case 'paragraph':
      return (
        <p>
          <Inline text={block.text} />
        </p>
      )
    case 'list':
      return (
        <ul className="flex list-disc flex-col gap-1.5 pl-5">
          {block.items.map((item) => (
            <li key={item}>
              <Inline text={item} />
            </li>
          ))}
        </ul>
      )
    case 'steps':
      return (
        <ol className="flex list-decimal flex-col gap-2 pl-5">
          {block.items.map((item) => (
            <li key={item}>
              <Inline text={item} />
            </li>
          ))}
        </ol>
      )
    case 'box':
      return (
        <div className="flex flex-col gap-1 rounded-lg bg-brand-50 px-3 py-2 text-sm" data-testid="help-box">
          {block.lines.map((line, index) => (
            <p key={line} className={index === 0 ? 'font-medium' : undefined}>
              {line}
            </p>
          ))}
        </div>
      )
    case 'heading':
      return (
        <h3 id={block.id} className="mt-2 scroll-mt-20 font-semibold text-gray-900">
          {block.text}
        </h3>
      )
  }
}

/** Who may open a section's page, and the way there when the reader may. */
function SectionAccess({ section, role }: { section: HelpSection; role: Role }) {
  const path = section.path
  if (!path) return null
  const roles = ROLES.filter((each) => roleMayOpen(each, path))
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600">
      <span>
        {roles.length === ROLES.length
          ? 'Para todo el equipo'
          : `Para: ${roles.map((each) => ROLE_LABELS[each]).join(', ')}`}
      </span>
      {roleMayOpen(role, path) ? (
        <Link to={path} className="font-medium text-brand-700 underline">
          Abrir {section.title}
        </Link>
      ) : (
        <span className="font-medium text-amber-800" data-testid="help-not-for-role">
          Tu rol no abre esta sección.
        </span>
      )}
    </p>
  )
}

function GuideSection({ section, role }: { section: HelpSection; role: Role }) {
  const titleId = `${section.id}-titulo`
  return (
    <section
      id={section.id}
      aria-labelledby={titleId}
      data-testid="help-section"
      className="flex scroll-mt-20 flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 text-sm leading-relaxed text-gray-800 shadow-sm sm:text-base"
    >
      <div className="flex flex-col gap-1">
        <h2 id={titleId} className="text-lg font-semibold text-gray-900">
          {section.title}
        </h2>
        <SectionAccess section={section} role={role} />
      </div>
      {section.blocks.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      <a href={`#${TOC_ID}`} className="self-end text-xs font-medium text-brand-700 underline">
        Volver al índice
      </a>
    </section>
  )
}

function TocList({ title, sections }: { title: string; sections: readonly HelpSection[] }) {
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold text-gray-700">{title}</h3>
      <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        {sections.map((section) => (
          <li key={section.id}>
            <a href={`#${section.id}`} className="text-brand-700 underline">
              {section.title}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}

export default function AdminHelp({ loaderData }: Route.ComponentProps) {
  const { role } = loaderData
  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">Ayuda</h1>
        <p className="text-sm text-gray-700">
          Guía corta de la administración: para qué sirve cada sección, la rutina de pedidos, cómo se calcula
          el costo y qué hacer cuando algo falla. El botón &quot;?&quot; de arriba, en cualquier página, te
          trae a la parte que habla de ella.
        </p>
        <p
          className="rounded-lg border border-brand-100 bg-white px-3 py-2 text-sm text-gray-700"
          data-testid="help-role"
        >
          <strong>Tu rol: {ROLE_LABELS[role]}.</strong> {ROLE_DESCRIPTIONS[role]}
        </p>
      </div>
      <nav
        id={TOC_ID}
        aria-labelledby="help-toc-title"
        className="flex scroll-mt-20 flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
      >
        <h2 id="help-toc-title" className="text-lg font-semibold">
          Contenido
        </h2>
        <TocList title="Secciones del menú" sections={HELP_SECTIONS} />
        <TocList title="Para el día a día" sections={HELP_TOPICS} />
      </nav>
      {HELP_GUIDE.map((section) => (
        <GuideSection key={section.id} section={section} role={role} />
      ))}
    </div>
  )
}
