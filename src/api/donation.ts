import type { ApiClient } from './http';
import type { TicketGroupAnswer } from '../contract/catalogue';
import { decimalToMinor } from '../domain/pricing';

/** The donation type the checkout offers, its range in minor units. */
export interface DonationType {
  id: string;
  min: number;
  max: number;
  suggested: number;
}

/** GET ticket_group/{id} with its types: the group's first type on sale, or null. */
export async function loadDonationType(api: ApiClient, groupId: string): Promise<DonationType | null> {
  const { data } = await api.get<TicketGroupAnswer>(`ticket_group/${encodeURIComponent(groupId)}`, { params: { _embed: 'ticket_type' } });
  const type = data.ticket_type?._data.find((t) => t.available !== false);
  if (!type) return null;
  const suggested = decimalToMinor(type.currency_amount);
  return {
    id: type.id,
    min: type.currency_amount_min ? decimalToMinor(type.currency_amount_min) : suggested,
    max: type.currency_amount_max ? decimalToMinor(type.currency_amount_max) : suggested,
    suggested,
  };
}
