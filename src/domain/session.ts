/** Pure rules of the logged-in session (no I/O). */

/** Spec section 9: default polling 1000 ms; section 4: session cookie check each 1 s. */
export const SESSION_POLL_MS = 1000;

/** Readable companion of the httpOnly session cookie (server/http/auth.ts). Holds no secret: only a
 *  per-login random tag, so a tab can notice a login or logout made elsewhere. */
export const SESSION_MARKER_COOKIE = 'ticketing_logged_in';

/** Readable companion of the httpOnly staff cookie (issue 18): the storefront asks GET staff/me, and loads the preview
 *  bar, only when it is there, so shoppers never pay for either. It grants nothing; the staff cookie does. */
export const STAFF_MARKER_COOKIE = 'ticketing_staff';

/** The marker's value from a `document.cookie` string, or null when absent. */
export function readMarker(cookieHeader: string | null, name: string = SESSION_MARKER_COOKIE): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = decodeURIComponent(part.slice(eq + 1).trim());
      return value || null;
    }
  }
  return null;
}

export interface MembershipTerm {
  valid_from: string | null;
  valid_to: string | null;
  state?: string;
}

/** Memberships whose term includes `now` (no start = started; no end = open-ended), not cancelled. */
export function activeMemberships<T extends MembershipTerm>(memberships: T[], now: Date): T[] {
  const t = now.getTime();
  return memberships.filter((m) => {
    if (m.state && ['cancelled', 'unbooked', 'refunded'].includes(m.state)) return false;
    const from = m.valid_from ? Date.parse(m.valid_from) : -Infinity;
    const to = m.valid_to ? Date.parse(m.valid_to) : Infinity;
    return from <= t && t < to;
  });
}

/** Header greeting: first name, else the e-mail address, else ''. */
export function greetingName(identity: { first_name?: string | null } | null, user: { email?: string | null } | null): string {
  const first = identity?.first_name?.trim();
  if (first) return first;
  return user?.email?.trim() ?? '';
}
