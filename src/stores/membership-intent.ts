/**
 * What the membership form decided for the checkout of a cart (spec section 3, client state persisted locally:
 * autoRenewMembership, giftee): kept by cart id in localStorage, so a reload or another tab's checkout still knows
 * to ask for auto-renew or to pay as a gift.
 */
export interface MembershipIntent {
  autoRenew?: boolean;
  gifteeIdentityId?: string;
}

export interface IntentStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const KEY = (cartId: string) => `storefront.membershipIntent.${cartId}`;

export function browserIntentStorage(): IntentStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function saveMembershipIntent(storage: IntentStorage | null, cartId: string, intent: MembershipIntent): void {
  try {
    storage?.setItem(KEY(cartId), JSON.stringify(intent));
  } catch {
    // storage full or blocked: the checkout then asks nothing of the kind
  }
}

export function readMembershipIntent(storage: IntentStorage | null, cartId: string | null): MembershipIntent {
  if (!cartId) return {};
  try {
    const raw = storage?.getItem(KEY(cartId));
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;
    if (!parsed || typeof parsed !== 'object') return {};
    const p = parsed as Record<string, unknown>;
    return {
      ...(p.autoRenew === true ? { autoRenew: true } : {}),
      ...(typeof p.gifteeIdentityId === 'string' ? { gifteeIdentityId: p.gifteeIdentityId } : {}),
    };
  } catch {
    return {};
  }
}

export function clearMembershipIntent(storage: IntentStorage | null, cartId: string): void {
  try {
    storage?.removeItem(KEY(cartId));
  } catch {
    // nothing kept
  }
}
