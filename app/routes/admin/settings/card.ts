/** The white card every section of the settings page sits on. */
export const cardClass = 'flex flex-col gap-4 rounded-xl border border-brand-100 bg-white p-4 shadow-sm'
