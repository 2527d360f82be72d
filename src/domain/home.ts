/** Home with membership presell (spec section 2): which options show, in which order. */

export type HomeOptionKind = 'login' | 'join' | 'guest';
export type HomeOption = { kind: 'login' } | { kind: 'join'; to: string } | { kind: 'guest'; to: string };

export const DEFAULT_HOME_ORDER: readonly HomeOptionKind[] = ['login', 'join', 'guest'];

/**
 * The configured order (unknown names and repeats dropped; an empty or missing list is the default order).
 * Login is left out when login is disabled; join needs the membership event.
 */
export function homeOptions(
  order: readonly string[] | undefined,
  ctx: { loginEnabled: boolean; membershipEventId: string | null },
): HomeOption[] {
  const known = (order ?? []).filter((k): k is HomeOptionKind => (DEFAULT_HOME_ORDER as readonly string[]).includes(k));
  const kinds = [...new Set(known.length ? known : DEFAULT_HOME_ORDER)];
  const out: HomeOption[] = [];
  for (const kind of kinds) {
    if (kind === 'login' && ctx.loginEnabled) out.push({ kind });
    if (kind === 'join' && ctx.membershipEventId) out.push({ kind, to: `/events/${ctx.membershipEventId}` });
    if (kind === 'guest') out.push({ kind, to: '/events' });
  }
  return out;
}
