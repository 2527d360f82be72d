/**
 * Session picker tabs and labels (spec sections 2 and 9): tab boundaries from the event's
 * config.web.session_picker_tabs (first_tab_threshold, second_tab_threshold, optional third, as "HHmm"
 * over 0000 to 2400), remaining-capacity labels and the venue-local time of a session.
 */
import { availableLabel } from './availability';
import { venueTime } from './dates';

export interface SessionPickerTabsConfig {
  first_tab_threshold?: string;
  second_tab_threshold?: string;
  third_tab_threshold?: string;
  labels?: string[];
}

export interface SessionLike {
  id: string;
  start_datetime: string;
  sold_out: boolean;
  /** capacity + oversell - used; -1 unlimited */
  availableCapacity: number;
}

export type TabState = 'available' | 'not_available' | 'sold_out';

export interface SessionTab<S extends SessionLike = SessionLike> {
  index: number;
  /** the seller's label for the tab, when the config gives one */
  label: string | null;
  /** "HHmm", inclusive */
  from: string;
  /** "HHmm", exclusive */
  to: string;
  sessions: S[];
  state: TabState;
}

const HHMM = /^([01]\d|2[0-3])[0-5]\d$|^2400$/;

/** "HHmm" -> minutes since midnight, or null when malformed. */
export function hhmmMinutes(value: string | undefined): number | null {
  if (!value || !HHMM.test(value)) return null;
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(2));
}

export function isSessionSoldOut(s: SessionLike): boolean {
  return s.sold_out || s.availableCapacity === 0;
}

/** Venue-local minutes since midnight of a session start. */
export function sessionMinutes(startIso: string, tz: string): number {
  const [h, m] = venueTime(startIso, tz).split(':').map(Number);
  return h * 60 + m;
}

/** 'h:mm A' (spec section 9 time format) of an instant in the venue timezone. */
export function formatSessionTime(startIso: string, tz: string): string {
  const [h, m] = venueTime(startIso, tz).split(':').map(Number);
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return `${hour12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * The tabs, or [] when the config has no valid thresholds (the picker then lists all sessions). A tab with
 * no sessions is 'not_available', one whose sessions are all sold out 'sold_out'.
 */
export function sessionTabs<S extends SessionLike>(
  config: SessionPickerTabsConfig | null | undefined,
  sessions: S[],
  tz: string,
): SessionTab<S>[] {
  if (!config) return [];
  const thresholds = [config.first_tab_threshold, config.second_tab_threshold, config.third_tab_threshold]
    .map(hhmmMinutes)
    .filter((m): m is number => m !== null && m > 0);
  if (thresholds.length === 0) return [];
  const bounds = [...new Set([0, ...thresholds.sort((a, b) => a - b), 24 * 60])];
  const tabs: SessionTab<S>[] = [];
  for (let i = 0; i < bounds.length - 1; i++) {
    const [from, to] = [bounds[i], bounds[i + 1]];
    const inTab = sessions.filter((s) => {
      const m = sessionMinutes(s.start_datetime, tz);
      return m >= from && m < to;
    });
    const state: TabState = inTab.length === 0 ? 'not_available' : inTab.every(isSessionSoldOut) ? 'sold_out' : 'available';
    tabs.push({ index: i, label: config.labels?.[i] ?? null, from: toHHmm(from), to: toHHmm(to), sessions: inTab, state });
  }
  return tabs;
}

function toHHmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

/** The tab to open first: the one holding the selected session, else the first with sessions to choose. */
export function initialTabIndex(tabs: SessionTab[], selectedSessionId: string | null): number {
  const withSelected = tabs.findIndex((t) => t.sessions.some((s) => s.id === selectedSessionId));
  if (withSelected >= 0) return withSelected;
  const open = tabs.findIndex((t) => t.state === 'available');
  return open >= 0 ? open : 0;
}

/**
 * What a session button says about capacity: 'sold_out', the number left when below
 * show_remaining_session_capacity_threshold ('{count} left'), else nothing.
 */
export function sessionCapacityLabel(
  s: SessionLike,
  threshold: number | null | undefined,
): { kind: 'sold_out' } | { kind: 'left'; count: number } | null {
  if (isSessionSoldOut(s)) return { kind: 'sold_out' };
  const label = availableLabel(s.availableCapacity, threshold);
  return typeof label === 'number' ? { kind: 'left', count: label } : null;
}
