import type { ApiClient } from '../api/http';
import {
  getCalendar,
  getCalendarForSelection,
  getReservableEvent,
  getSessionDetail,
  getSessionsForSelection,
  getSessionsOnDate,
} from '../api/reservation-reads';
import { getSeatMap } from '../api/seating';
import type { ReservationApi } from './ReservationStore';

/**
 * The client a current member's event read goes through: the same, asking for the members-only groups too (spec
 * section 6, hidden_type._in), so the storefront's first-page code (api/events.ts) stays as it is.
 */
function withMemberGroups(api: ApiClient): ApiClient {
  const params = { 'hidden_type._in': 'public_browsable,public_link_only,public_member_only' };
  const get = ((url: string, config?: { params?: object }) =>
    api.get(url, { ...config, params: { ...config?.params, ...params } })) as ApiClient['get'];
  return Object.assign(Object.create(api) as ApiClient, { get });
}

/** The reads a reservation flow makes (spec section 7), on the storefront's API client. */
export function reservationApi(api: ApiClient): ReservationApi {
  return {
    getEvent: (id, opts) => getReservableEvent(opts?.members ? withMemberGroups(api) : api, id),
    getCalendar: (id, groupIds) => getCalendar(api, id, groupIds),
    getSessions: (id, date, groupIds) => getSessionsOnDate(api, id, date, groupIds),
    getSession: (id, sessionId, groupIds) => getSessionDetail(api, id, sessionId, groupIds),
    getCalendarForSelection: (id, tickets) => getCalendarForSelection(api, id, tickets),
    getSessionsForSelection: (id, date, tickets) => getSessionsForSelection(api, id, date, tickets),
    getSeatMap: (id, sessionId) => getSeatMap(api, id, sessionId),
  };
}
