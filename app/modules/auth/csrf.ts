/** Name of the hidden field that carries the anti-forgery token in admin form posts. */
export const CSRF_FIELD = 'csrf'
/** Header alternative for `fetch` and upload requests. */
export const CSRF_HEADER = 'X-CSRF-Token'
