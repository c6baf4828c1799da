/**
 * Set on `<html>` by the page's script loader (`defer-scripts.server.ts`) once it stops waiting for
 * the scripts: content held back until hydration (`HIDDEN_UNTIL_HYDRATED`) shows then anyway.
 */
export const SHOW_DEFERRED_ATTRIBUTE = 'data-show-deferred'
