import { rawCookieValue } from '#app/utils/cookies.ts'

/**
 * A browser that has signed in to the back office carries this cookie (set at sign-in, kept after
 * sign-out) so the owner's and admins' own visits are never measured or sent to Meta. The server
 * checks the admin session as well; this cookie lets the browser skip loading trackers at all.
 * Shared by client and server code: no secrets.
 */
export const STAFF_DEVICE_COOKIE = 'vitrina_staff'

/** Whether the Cookie header (or `document.cookie`) carries the staff-device cookie. */
export function hasStaffCookie(cookieHeader: string | null | undefined): boolean {
  return rawCookieValue(cookieHeader, STAFF_DEVICE_COOKIE) !== undefined
}
