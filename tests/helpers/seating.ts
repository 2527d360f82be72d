import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The demo's seated concert (sellers/demo: the Starlight Theatre, groups Orchestra, Mezzanine and Balcony) as the
 * API shows it: the event, its first session, its groups' types and its seats by name ('ORCH-C7').
 */
export interface Concert {
  eventId: string;
  sessionId: string;
  /** the second session, for tests that need a fresh one */
  otherSessionId: string;
  groups: Record<'orchestra' | 'mezzanine' | 'balcony', string>;
  /** ticket type ids: adult and student of each group */
  types: Record<'orchestra' | 'mezzanine' | 'balcony', { adult: string; student: string }>;
  seat: (name: string) => string;
}

export async function concert(app: FastifyInstance, seller = 'demo'): Promise<Concert> {
  const get = async (url: string) => (await app.inject({ url })).json();
  const events = await get(`/api/events/available?_seller=${seller}&category=performance`);
  const event = events.event_template._data.find((e: { name: string }) => /Science of Sound/.test(e.name));
  const detail = await get(`/api/events/${event.id}?_seller=${seller}&_embed=ticket_group,ticket_type`);
  const sessions = await get(`/api/events/${event.id}/sessions?_seller=${seller}&_limit=2&_sort=start_datetime`);
  const [first, second] = sessions.event_session._data;
  const map = await get(`/api/events/${event.id}/sessions/${first.id}/seat_map?_seller=${seller}`);
  const seats = new Map<string, string>(
    map.seat._data.map((s: { name: string; seat_template_id: string }) => [s.name, s.seat_template_id]),
  );
  const groupId = (name: string) => detail.ticket_group._data.find((g: { name: string }) => g.name === name).id as string;
  const typeIds = (group: string) => {
    const of = detail.ticket_type._data.filter((t: { ticket_group_id: string }) => t.ticket_group_id === group);
    return {
      adult: of.find((t: { name: string }) => t.name === 'Adult').id as string,
      student: of.find((t: { name: string }) => t.name === 'Student').id as string,
    };
  };
  const groups = { orchestra: groupId('Orchestra'), mezzanine: groupId('Mezzanine'), balcony: groupId('Balcony') };
  return {
    eventId: event.id,
    sessionId: first.id,
    otherSessionId: second.id,
    groups,
    types: { orchestra: typeIds(groups.orchestra), mezzanine: typeIds(groups.mezzanine), balcony: typeIds(groups.balcony) },
    seat: (name) => {
      const id = seats.get(name);
      if (!id) throw new Error(`no seat ${name} on the map`);
      return id;
    },
  };
}

/**
 * A copy of the demo seller whose theatre has `rows` x `perRow` seats (40 x 25 = 1,000 by default) in three
 * sections, with group capacities to match: for measuring the seat-map read at a realistic size.
 */
export function largeTheatreFolder(rows = 40, perRow = 25): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'large-theatre-'));
  cpSync(path.resolve('sellers/demo'), dir, { recursive: true });
  const file = path.join(dir, 'catalog.json');
  const catalog = JSON.parse(readFileSync(file, 'utf8'));
  // Letters only: a digit in a row label would make names like 'ORCH-R11' ambiguous (row R1 seat 11, row R11 seat 1).
  const letter = (i: number) => String.fromCharCode(65 + i);
  const labels = Array.from({ length: rows }, (_, i) => (i < 26 ? letter(i) : letter(Math.floor(i / 26) - 1) + letter(i % 26)));
  const split = [Math.floor(rows / 2), Math.floor(rows / 4), rows - Math.floor(rows / 2) - Math.floor(rows / 4)];
  const keys = ['ORCH', 'MEZZ', 'BALC'] as const;
  const groupOf = { ORCH: 'orchestra', MEZZ: 'mezzanine', BALC: 'balcony' };
  const names = { ORCH: 'Orchestra', MEZZ: 'Mezzanine', BALC: 'Balcony' };
  let first = 0;
  const map = catalog.seat_maps[0];
  map.width = perRow * 28 + 100;
  map.height = rows * 28 + 200;
  map.sections = keys.map((key, i) => {
    const section = {
      key,
      name: names[key],
      rows: labels.slice(first, first + split[i]),
      seats_per_row: perRow,
      origin: { x: 50, y: 100 + first * 28 + i * 20 },
      seat_spacing: 28,
      row_spacing: 28,
      radius: 10,
      ticket_groups: [groupOf[key]],
    };
    first += split[i];
    return section;
  });
  const event = catalog.events.find((e: { seat_map?: string }) => e.seat_map === map.key);
  for (const group of event.ticket_groups) {
    const key = keys.find((k) => groupOf[k] === group.key)!;
    group.capacity = split[keys.indexOf(key)] * perRow;
  }
  for (const schedule of event.schedules) schedule.capacity = rows * perRow;
  writeFileSync(file, JSON.stringify(catalog));
  return dir;
}
