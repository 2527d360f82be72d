import type { ApiClient } from './http';
import type {
  GiftCodeAnswer,
  GiftCodeRow,
  GifteeAnswer,
  GifteeBody,
  MembershipAnswer,
  MembershipRulesAnswer,
} from '../contract/membership';

/** The membership calls of the storefront (issue 12; spec section 7). */

export type { GiftCodeRow, MembershipRulesAnswer };

/** GET membership_rules with the levels, their programs and their ticket types. */
export async function getMembershipRules(client: ApiClient): Promise<MembershipRulesAnswer> {
  const { data } = await client.get<MembershipRulesAnswer>('membership_rules', {
    params: { _embed: 'ticket_type,role,membership_program', _limit: 1000 },
  });
  return data;
}

/** POST giftee: who receives a gift of membership; answers the identity id the gift checkout names. */
export async function postGiftee(client: ApiClient, body: Omit<GifteeBody, '_seller'>): Promise<string> {
  const { data } = await client.post<GifteeAnswer>('giftee', body);
  const row = data.giftee?._data?.[0];
  if (!row) throw new Error('POST giftee answered without a giftee');
  return row.identity_id;
}

/** GET gift_code/{code}: its validity and whether it was redeemed (404 not_found otherwise). */
export async function getGiftCode(client: ApiClient, code: string): Promise<GiftCodeRow> {
  const { data } = await client.get<GiftCodeAnswer>(`gift_code/${encodeURIComponent(code)}`);
  const row = data.gift_code?._data?.[0];
  if (!row) throw new Error('GET gift_code answered without a row');
  return row;
}

/** POST my/gift_code/{code}/redeem: the membership it books for the logged-in user. */
export async function redeemGiftCode(client: ApiClient, code: string): Promise<MembershipAnswer> {
  const { data } = await client.post<MembershipAnswer>(`my/gift_code/${encodeURIComponent(code)}/redeem`);
  return data;
}

/** DELETE ticket_order/{id}/auto_renew. */
export async function cancelAutoRenew(client: ApiClient, orderId: string): Promise<MembershipAnswer> {
  const { data } = await client.delete<MembershipAnswer>(`ticket_order/${encodeURIComponent(orderId)}/auto_renew`);
  return data;
}
