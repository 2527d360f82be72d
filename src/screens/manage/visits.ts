import type { SelfEditAnswer } from '../../contract/self-edit';
import { sessionLabel } from '../../domain/dates';
import { ticketViews, type TicketView } from '../account/views';

/**
 * What the manage screen shows of an order (issue 17), built from GET ticket_order/{id}/self_edit without I/O or React:
 * its visits (the live tickets by session), which of them may be moved to another time, where this browser's unsaved
 * edit moves them, and the tickets cancelled. Tickets an earlier edit moved away (unbooked) are not shown: their
 * replacements are.
 */
export interface ManageVisit {
  key: string;
  sessionId: string | null;
  event: string;
  when: string;
  tickets: TicketView[];
  /** a reschedule may move this visit's tickets (their ids) */
  movableIds: string[];
  /** the new time this browser's unsaved edit moves the visit to, or null */
  movingTo: string | null;
}

export interface ManageView {
  visits: ManageVisit[];
  cancelled: TicketView[];
}

export function manageView(answer: SelfEditAnswer | null, tz: string): ManageView {
  if (!answer) return { visits: [], cancelled: [] };
  const rows = answer.ticket?._data ?? [];
  const row = answer.self_edit._data[0];
  const movable = new Set(row?.reschedulable_ticket_ids ?? []);
  const moves = new Map((row?.edit?.moves ?? []).map((m) => [m.ticket_id, m]));
  const views = new Map(ticketViews(answer, rows, tz).map((v) => [v.id, v]));
  const visits = new Map<string, ManageVisit>();
  for (const t of rows) {
    if (t.state !== 'booked' && t.state !== 'redeemed') continue;
    const key = `${t.event_template_id}:${t.event_session_id ?? 'any'}`;
    let visit = visits.get(key);
    if (!visit) {
      visit = {
        key,
        sessionId: t.event_session_id,
        event: views.get(t.id)?.event ?? '',
        when: views.get(t.id)?.when ?? '',
        tickets: [],
        movableIds: [],
        movingTo: null,
      };
      visits.set(key, visit);
    }
    visit.tickets.push(views.get(t.id)!);
    if (movable.has(t.id)) visit.movableIds.push(t.id);
    const move = moves.get(t.id);
    if (move) visit.movingTo = sessionLabel(move.to_start_datetime, t.timezone ?? tz);
  }
  const cancelled = rows.filter((t) => t.state === 'cancelled').map((t) => views.get(t.id)!);
  return { visits: [...visits.values()], cancelled };
}
