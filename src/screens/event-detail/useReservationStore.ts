import { useEffect, useState } from 'react';
import { useStores } from '../../stores/context';
import { ReservationStore } from '../../stores/ReservationStore';
import { getCalendar, getReservableEvent, getSessionDetail, getSessionsOnDate } from '../../api/events';

/** A reservation store per event-detail visit (DESIGN.md section 2): created for the event, disposed when it is left. */
export function useReservationStore(eventId: string): ReservationStore | null {
  const root = useStores();
  const [store, setStore] = useState<ReservationStore | null>(null);

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
      },
    });
    setStore(next);
    void next.load();
    return () => next.dispose();
  }, [eventId, root]);

  return store?.eventId === eventId ? store : null;
}
