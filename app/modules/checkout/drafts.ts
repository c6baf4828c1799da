/** Checkouts begun and not finished: the rules the page and the server share (drafts.server.ts). */

/** Days a draft is kept after its last change (the data policy says so). */
export const DRAFT_KEPT_DAYS = 30
/** A draft untouched this long is an abandoned checkout: the shopper is not typing any more. */
export const ABANDONED_AFTER_MINUTES = 30
