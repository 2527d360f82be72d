import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parsePreselection } from '../../domain/preselect';
import { useStores } from '../../stores/context';
import { ReservationStore } from '../../stores/ReservationStore';
import {
  getCalendar, getCalendarForSelection, getReservableEvent, getSessionDetail, getSessionsForSelection, getSessionsOnDate,
} from '../../api/events';

/** A reservation store per event-detail visit (DESIGN.md section 2): created for the event, disposed when it is left.
 *  A link's query preselection (domain/preselect.ts) is applied once the flow has loaded; a link that reserves goes
 *  on to the checkout. */
export function useReservationStore(eventId: string): ReservationStore | null {
  const root = useStores();
  const [store, setStore] = useState<ReservationStore | null>(null);
  const navigate = useNavigate();
  const { search } = useLocation();
  // The query of the visit when the event's flow is created; choosing things later does not apply it again.
  const latestSearch = useRef(search);
  latestSearch.current = search;

  useEffect(() => {
    const { api } = root;
    const next = new ReservationStore({
      eventId,
      timezone: root.config.timezone,
      cart: root.cart,
      api: {
        getEvent: (id) => getReservableEvent(api, id),
        getCalendar: (id, groupIds) => getCalendar(api, id, groupIds),
        getSessions: (id, date, groupIds) => getSessionsOnDate(api, id, date, groupIds),
        getSession: (id, sessionId, groupIds) => getSessionDetail(api, id, sessionId, groupIds),
        getCalendarForSelection: (id, tickets) => getCalendarForSelection(api, id, tickets),
        getSessionsForSelection: (id, date, tickets) => getSessionsForSelection(api, id, date, tickets),
      },
      reserveFlow: root.config.storefront.web?.reserve_flow as string | undefined,
    });
    setStore(next);
    const preselection = parsePreselection(new URLSearchParams(latestSearch.current));
    void next.load().then(() => next.preselect(preselection)).then((reserved) => { if (reserved) navigate('/checkout'); });
    return () => next.dispose();
    // navigate is stable for the router's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [eventId, root]);

  return store?.eventId === eventId ? store : null;
}
