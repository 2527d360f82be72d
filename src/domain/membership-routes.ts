/** The membership routes of spec section 2 (issue 12). */

/** What `/membership/{action}` leads to (spec section 2): the external membership URL plus the action, the membership event, or nothing. */
export function membershipTarget(
  config: { membership_event_id?: string | null; external_urls?: Record<string, unknown> | null },
  action?: string,
): { kind: 'external'; url: string } | { kind: 'event'; path: string } | { kind: 'unavailable' } {
  const external = config.external_urls?.membership;
  if (typeof external === 'string' && external.trim()) {
    const base = external.trim();
    return { kind: 'external', url: action ? `${base.replace(/\/+$/, '')}/${encodeURIComponent(action)}` : base };
  }
  const eventId = config.membership_event_id;
  if (eventId) return { kind: 'event', path: `/events/${encodeURIComponent(eventId)}${action ? `/${encodeURIComponent(action)}` : ''}` };
  return { kind: 'unavailable' };
}
