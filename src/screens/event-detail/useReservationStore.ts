import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parsePreselection } from '../../domain/preselect';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { sessionSettled } from '../../stores/session-settled';
import { ReservationStore } from '../../stores/ReservationStore';
import { reservationApi } from '../../stores/reservation-api';
import { useUpsells } from '../../stores/UpsellStore';

/** A reservation store per event-detail visit (DESIGN.md section 2): created for the event, disposed when it is left.
 *  A link's query preselection (domain/preselect.ts), read when the flow is created, is applied once the flow has
 *  loaded; a link that reserves goes on to the checkout. */
export function useReservationStore(eventId: string): ReservationStore {
  const root = useStores();
  const navigate = useNavigate();
  const { search } = useLocation();
  const upsells = useUpsells();

  // Spec section 6: a current member sees the members-only groups, with the ticket types of the membership's benefits.
  const memberTypes = root.membership.benefitTypeIds;
  const memberKey = memberTypes ? memberTypes.join(',') : '';
  const flow = useScreenStore(() => {
    const store = new ReservationStore({
      eventId,
      timezone: root.config.timezone,
      cart: root.cart,
      api: reservationApi(root.api),
      reserveFlow: root.config.storefront.web?.reserve_flow,
      member: memberTypes ? root.membership : null,
      visit: upsells.visitContext,
    });
    // The query of the visit when the event's flow is created; choosing things later does not apply it again.
    const preselection = parsePreselection(new URLSearchParams(search));
    return { store, preselection, start: () => store.start(), dispose: () => store.dispose() };
  }, [eventId, root, memberKey]);

  useEffect(() => {
    // The flow loads once the session is known (at once for a visitor without one): a member's flow reads the
    // members-only groups, and a flow made before the membership arrived would lose what was chosen in it.
    let live = true;
    void sessionSettled(root.session).then(() => {
      if (!live) return;
      return flow.store
        .load()
        .then(() => flow.store.preselect(flow.preselection))
        .then((reserved) => {
          if (reserved) navigate('/checkout');
        });
    });
    return () => {
      live = false;
    };
    // navigate is stable for the router's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flow]);

  return flow.store;
}
