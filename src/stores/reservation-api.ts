import type { AxiosInstance } from 'axios';
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

/** The reads a reservation flow makes (spec section 7), on the storefront's API client. */
export function reservationApi(api: AxiosInstance): ReservationApi {
  return {
    getEvent: (id) => getReservableEvent(api, id),
    getCalendar: (id, groupIds) => getCalendar(api, id, groupIds),
    getSessions: (id, date, groupIds) => getSessionsOnDate(api, id, date, groupIds),
    getSession: (id, sessionId, groupIds) => getSessionDetail(api, id, sessionId, groupIds),
    getCalendarForSelection: (id, tickets) => getCalendarForSelection(api, id, tickets),
    getSessionsForSelection: (id, date, tickets) => getSessionsForSelection(api, id, date, tickets),
    getSeatMap: (id, sessionId) => getSeatMap(api, id, sessionId),
  };
}
