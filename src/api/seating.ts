import type { ApiClient } from './http';
import type { SeatMapAnswer, SeatMapRow, SeatRow } from '../contract/seating';
import { ApiError } from './errors';

export type { SeatMapRow, SeatRow };

export interface SeatMapData {
  seatMap: SeatMapRow;
  seats: SeatRow[];
}

/** GET events/{id}/sessions/{sid}/seat_map?_withgeometry=true: the drawing and every seat's state at that session. */
export async function getSeatMap(client: ApiClient, eventId: string, sessionId: string): Promise<SeatMapData> {
  const { data } = await client.get<SeatMapAnswer>(
    `events/${encodeURIComponent(eventId)}/sessions/${encodeURIComponent(sessionId)}/seat_map`,
    { params: { _withgeometry: 'true' } },
  );
  const seatMap = data.seat_map?._data?.[0];
  if (!seatMap) throw new ApiError(404, 'not_found', 'Resource seat_map not found.');
  return { seatMap, seats: data.seat?._data ?? [] };
}
