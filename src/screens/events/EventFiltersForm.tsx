import { observer } from 'mobx-react-lite';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { DATE_FILTERS, type DateFilter, type EventFilters } from '../../domain/event-filters';

interface Props {
  filters: EventFilters;
  onChange: (next: EventFilters) => void;
}

/** The listing's filter controls; every change goes straight to the address query (the source of truth). */
export const EventFiltersForm = observer(function EventFiltersForm({ filters, onChange }: Props) {
  const { t } = useTranslation();
  const { config } = useStores();
  const id = useId();

  const set = (patch: Partial<EventFilters>) => onChange({ ...filters, ...patch });
  const handleDate = (e: ChangeEvent<HTMLSelectElement>) => set({ date: (e.target.value || undefined) as DateFilter | undefined });
  const handleCategory = (e: ChangeEvent<HTMLSelectElement>) => set({ category: e.target.value || undefined });
  const handleTimeStart = (e: ChangeEvent<HTMLInputElement>) => set({ timeStart: e.target.value || undefined });
  const handleTimeEnd = (e: ChangeEvent<HTMLInputElement>) => set({ timeEnd: e.target.value || undefined });
  const handleMetadata = (key: string) => (e: ChangeEvent<HTMLSelectElement | HTMLInputElement>) => {
    const metadata = { ...filters.metadata };
    if (e.target.value) metadata[key] = e.target.value;
    else delete metadata[key];
    set({ metadata });
  };

  return (
    <form className="event-filters" role="search" aria-label={t('events.filters.label')} onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={`${id}-date`}>{t('events.filters.date')}</label>
        <select id={`${id}-date`} value={filters.date ?? ''} onChange={handleDate}>
          <option value="">{t('events.filters.anyDate')}</option>
          {DATE_FILTERS.map((d) => (
            <option key={d} value={d}>
              {t(`events.filters.${d}`)}
            </option>
          ))}
        </select>
      </div>
      {config.categoryFilters.length > 0 && (
        <div className="field">
          <label htmlFor={`${id}-category`}>{t('events.filters.category')}</label>
          <select id={`${id}-category`} value={filters.category ?? ''} onChange={handleCategory}>
            <option value="">{t('events.filters.anyCategory')}</option>
            {config.categoryFilters.map((c) => (
              <option key={c} value={c}>
                {t(`events.categories.${c}`, { defaultValue: c })}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-time-start`}>{t('events.filters.timeStart')}</label>
        <input id={`${id}-time-start`} type="time" value={filters.timeStart ?? ''} onChange={handleTimeStart} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-time-end`}>{t('events.filters.timeEnd')}</label>
        <input id={`${id}-time-end`} type="time" value={filters.timeEnd ?? ''} onChange={handleTimeEnd} />
      </div>
      {config.metadataFilters.map((m) => (
        <div className="field" key={m.key}>
          <label htmlFor={`${id}-meta-${m.key}`}>{m.label}</label>
          {m.options?.length ? (
            <select id={`${id}-meta-${m.key}`} value={filters.metadata[m.key] ?? ''} onChange={handleMetadata(m.key)}>
              <option value="">{t('events.filters.anyOption')}</option>
              {m.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          ) : (
            <input id={`${id}-meta-${m.key}`} type="text" value={filters.metadata[m.key] ?? ''} onChange={handleMetadata(m.key)} />
          )}
        </div>
      ))}
    </form>
  );
});
