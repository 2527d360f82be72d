import { makeAutoObservable } from 'mobx';
import type { TicketTypeRow } from '../contract/catalogue';
import type { MembershipRow } from '../contract/account';
import { currentBenefits, memberBenefitTypes } from '../domain/member-benefits';
import { benefitsRemaining, type Benefit } from '../domain/membership';
import { activeMemberships } from '../domain/session';
import { memberPriceOf } from '../domain/subtotal';

/** What the member store reads of the cart: its lines, per session and type. */
interface CartLines {
  readonly items: ReadonlyArray<{
    event_session_id: string | null;
    types: ReadonlyArray<{ ticket_type_id: string; ticketCount: number }>;
  }>;
}

export interface MembershipStoreDeps {
  session: { readonly isLoggedIn: boolean; readonly memberships: MembershipRow[] };
  cart: CartLines;
  now: () => Date;
}

/**
 * The logged-in member as the storefront sells to them (spec sections 5 and 6; one per root store): the current
 * membership, the ticket types of its benefits, the member prices, and how many member tickets a session still has
 * room for: each benefit's own quantity, then the shared wildcard pool, within the level's per-event limit, counting
 * the member tickets the cart already holds for that session. The reservation flow reads its caps and prices here;
 * the server counts the same and the member's past orders too (member_limit_exceeded), whatever the page allows.
 */
export class MembershipStore {
  private readonly deps: MembershipStoreDeps;

  constructor(deps: MembershipStoreDeps) {
    this.deps = deps;
    makeAutoObservable<MembershipStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  /** The membership whose term includes now (the first when several do), or null. */
  get current(): MembershipRow | null {
    if (!this.deps.session.isLoggedIn) return null;
    return activeMemberships(this.deps.session.memberships, this.deps.now())[0] ?? null;
  }

  get isActiveMember(): boolean {
    return this.current !== null;
  }

  /** The ticket types the member may take as a member, sorted (a key for per-member state); null for a non-member. */
  get benefitTypeIds(): string[] | null {
    return memberBenefitTypes(this.deps.session.memberships, this.deps.now(), this.deps.session.isLoggedIn);
  }

  /** The current membership's benefits (member prices in minor units) and per-event limit (negative: none). */
  get benefits(): { benefits: Benefit[]; limit: number } | null {
    return currentBenefits(this.deps.session.memberships, this.deps.now(), this.deps.session.isLoggedIn);
  }

  /** A members-only type's price for this member (the benefit's price), or null: the type's own price applies. */
  memberPrice(type: Pick<TicketTypeRow, 'id' | 'member_only'>, group: { hidden_type: string }): number | null {
    return memberPriceOf(type, group, this.benefits?.benefits);
  }

  /** Member-benefit tickets the cart holds for a session, by ticket type. */
  heldInCart(sessionId: string | null): Record<string, number> {
    const held: Record<string, number> = {};
    const types = new Set(this.benefitTypeIds ?? []);
    if (!sessionId || types.size === 0) return held;
    for (const item of this.deps.cart.items) {
      if (item.event_session_id !== sessionId) continue;
      for (const t of item.types) if (types.has(t.ticket_type_id)) held[t.ticket_type_id] = (held[t.ticket_type_id] ?? 0) + t.ticketCount;
    }
    return held;
  }

  /**
   * How many more tickets of each benefit type the member may add to a session beyond `chosen` (the counts on the
   * page), with what the cart already holds for it counted in: each type's room is the smallest of its own quantity
   * plus what is left of the shared pool, and what is left of the per-event limit. Empty for a non-member.
   */
  roomFor(sessionId: string | null, chosen: Record<string, number>): Record<string, number> {
    const current = this.benefits;
    if (!current) return {};
    const held = this.heldInCart(sessionId);
    const room: Record<string, number> = {};
    for (const b of current.benefits) {
      if (b.ticket_type_id === '*') continue;
      const used: Record<string, number> = { ...held };
      for (const other of current.benefits)
        if (other.ticket_type_id !== '*' && other.ticket_type_id !== b.ticket_type_id)
          used[other.ticket_type_id] = (used[other.ticket_type_id] ?? 0) + (chosen[other.ticket_type_id] ?? 0);
      const left = benefitsRemaining(current.benefits, used, current.limit)[b.ticket_type_id] ?? 0;
      room[b.ticket_type_id] = Math.max(0, left - (chosen[b.ticket_type_id] ?? 0));
    }
    return room;
  }
}
