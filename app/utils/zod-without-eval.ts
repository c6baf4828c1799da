/**
 * Zod (the forms' checks, in the browser too) probes `new Function` for a faster parser when it
 * defines an object schema; the Content-Security-Policy refuses it and the browser reports a
 * violation, though zod copes without. This turns the probe off before any schema is defined: root.tsx
 * imports it first. Zod reads this global when it loads, or keeps using the object it made.
 */
if (typeof document !== 'undefined') {
  const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
  ;(zodGlobal.__zod_globalConfig ??= {}).jitless = true
}

export {}
