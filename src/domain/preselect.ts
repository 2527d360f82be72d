import { PER_TYPE_CAP } from '../contract/limits';
/**
 * Query preselection of the event detail (spec sections 2 and 4): a link can choose the date or the session, the
 * quantities, a ticket group filter, a selected type and its flexible price, and ask to reserve at once.
 *   ?date=2026-12-01 | ?session={id}|today|next   (not both)
 *   &quantity=Adult:2,{typeId}:1   &tg={groupId},{groupId}   &select={typeId or name}&price=25
 *   &reserve=warn|strict|1
 * Order: date or session, quantities, then submit when reserve is on. warn shows errors as warnings; strict shows a
 * generic unavailable error.
 */
export type ReserveMode = 'off' | 'on' | 'warn' | 'strict';

export interface Preselection {
  date?: string;
  /** A session id, or 'today' (today's first open session) or 'next' (the next open session). */
  session?: string;
  quantities: Array<{ type: string; count: number }>;
  groupIds?: string[];
  select?: string;
  price?: string;
  reserve: ReserveMode;
  /** The link asks for something that cannot be done: session and date together. */
  conflict?: 'sessionAndDate';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function parsePreselection(search: URLSearchParams): Preselection {
  const date = search.get('date')?.trim() || undefined;
  const session = search.get('session')?.trim() || undefined;
  const quantities = list(search.get('quantity')).flatMap((entry) => {
    const at = entry.lastIndexOf(':');
    const type = (at > 0 ? entry.slice(0, at) : entry).trim();
    const count = at > 0 ? Number(entry.slice(at + 1)) : 1;
    return type && Number.isInteger(count) && count >= 0 && count <= PER_TYPE_CAP ? [{ type, count }] : [];
  });
  const reserveValue = (search.get('reserve') ?? '').trim().toLowerCase();
  const reserve: ReserveMode =
    reserveValue === 'warn' || reserveValue === 'strict'
      ? reserveValue
      : reserveValue && reserveValue !== 'false' && reserveValue !== '0'
        ? 'on'
        : 'off';
  const groupIds = list(search.get('tg'));
  return {
    ...(date && ISO_DATE.test(date) ? { date } : {}),
    ...(session ? { session } : {}),
    quantities,
    ...(groupIds.length ? { groupIds } : {}),
    ...(search.get('select')?.trim() ? { select: search.get('select')!.trim() } : {}),
    ...(search.get('price')?.trim() ? { price: search.get('price')!.trim() } : {}),
    reserve,
    ...(date && session ? { conflict: 'sessionAndDate' as const } : {}),
  };
}

/** Whether a link asks for anything at all (most visits do not). */
export const hasPreselection = (p: Preselection) =>
  Boolean(p.date || p.session || p.quantities.length || p.groupIds || p.select || p.reserve !== 'off');

/** A ticket type named in a link: by id, else by name (case and surrounding spaces ignored). */
export function findType<T extends { id: string; name: string }>(types: T[], key: string): T | undefined {
  const wanted = key.trim().toLowerCase();
  return types.find((t) => t.id === key) ?? types.find((t) => t.name.trim().toLowerCase() === wanted);
}
