import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionRow } from '../contract/catalogue';
import {
  formatSessionTime,
  initialTabIndex,
  isSessionSoldOut,
  sessionCapacityLabel,
  sessionTabs,
  type SessionPickerTabsConfig,
  type SessionTab,
} from '../domain/session-tabs';

interface Props {
  sessions: SessionRow[];
  tabsConfig: SessionPickerTabsConfig | null | undefined;
  timezone: string;
  selectedId: string | null;
  /** show_remaining_session_capacity_threshold: '{count} left' below it */
  remainingThreshold: number | null;
  onSelect: (sessionId: string) => void;
  /** why a session that is not sold out cannot be chosen (an overlap with the cart), or null */
  unavailableReason?: (session: SessionRow) => string | null;
}

const hhmm = (v: string) => `${v.slice(0, 2)}:${v.slice(2)}`;

/** Session times of the chosen date, in tabs by time of day when the event configures them (spec section 2). */
export function SessionPicker({ sessions, tabsConfig, timezone, selectedId, remainingThreshold, onSelect, unavailableReason }: Props) {
  const { t } = useTranslation();
  const baseId = useId();
  const tabs = sessionTabs(tabsConfig, sessions, timezone);
  const [active, setActive] = useState(() => initialTabIndex(tabs, selectedId));
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const sessionsKey = sessions.map((s) => s.id).join();

  // A new date brings new sessions: open the tab that has something to choose (state adjusted while rendering).
  const [tabsFor, setTabsFor] = useState(sessionsKey);
  if (tabsFor !== sessionsKey) {
    setTabsFor(sessionsKey);
    setActive(initialTabIndex(tabs, selectedId));
  }

  const list = (items: SessionRow[]) => (
    <ul className="session-list">
      {items.map((session) => {
        const soldOut = isSessionSoldOut(session);
        const reason = soldOut ? null : (unavailableReason?.(session) ?? null);
        const selected = session.id === selectedId;
        const capacity = sessionCapacityLabel(session, remainingThreshold);
        return (
          <li key={session.id}>
            <button
              type="button"
              className={`session-button${selected ? ' session-button--selected' : ''}`}
              aria-pressed={selected}
              disabled={soldOut || reason !== null}
              onClick={() => onSelect(session.id)}
            >
              <span className="session-button__time">{formatSessionTime(session.start_datetime, timezone)}</span>
              {capacity?.kind === 'sold_out' && <span className="session-button__status">{t('sessions.soldOut')}</span>}
              {reason !== null && <span className="session-button__status">{reason}</span>}
              {reason === null && capacity?.kind === 'left' && (
                <span className="session-button__left">{t('sessions.left', { count: capacity.count })}</span>
              )}
              {session.annotations?.map((note) => (
                <span key={note} className="session-button__note">
                  {note}
                </span>
              ))}
            </button>
          </li>
        );
      })}
    </ul>
  );

  if (tabs.length === 0) return list(sessions);

  const enabled = tabs.filter((tab) => tab.state === 'available').map((tab) => tab.index);
  const current = tabs[active] && tabs[active].state === 'available' ? active : (enabled[0] ?? 0);

  const handleTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const at = enabled.indexOf(current);
    if (at < 0 || enabled.length < 2) return;
    event.preventDefault();
    const next = enabled[(at + (event.key === 'ArrowRight' ? 1 : enabled.length - 1)) % enabled.length];
    setActive(next);
    tabRefs.current[next]?.focus();
  };

  const tabLabel = (tab: SessionTab) => tab.label ?? t('sessions.tabRange', { from: hhmm(tab.from), to: hhmm(tab.to) });

  return (
    <div className="session-tabs">
      <div role="tablist" className="session-tabs__list" onKeyDown={handleTabKey}>
        {tabs.map((tab) => {
          const disabled = tab.state !== 'available';
          return (
            <button
              key={tab.index}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.index}`}
              ref={(el) => {
                tabRefs.current[tab.index] = el;
              }}
              aria-selected={tab.index === current}
              aria-controls={`${baseId}-panel`}
              aria-disabled={disabled || undefined}
              tabIndex={tab.index === current ? 0 : -1}
              className="session-tab"
              onClick={() => {
                if (!disabled) setActive(tab.index);
              }}
            >
              <span className="session-tab__label">{tabLabel(tab)}</span>
              {tab.state === 'not_available' && <span className="session-tab__status">{t('sessions.notAvailable')}</span>}
              {tab.state === 'sold_out' && <span className="session-tab__status">{t('sessions.soldOut')}</span>}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${current}`} className="session-tabs__panel">
        {list(tabs[current]?.sessions ?? [])}
      </div>
    </div>
  );
}
