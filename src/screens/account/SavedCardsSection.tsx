import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { SavedCardsStore } from '../../stores/SavedCardsStore';
import { useCardLabel } from '../checkout/SavedCardChoice';

/**
 * The account area's saved cards (issue 22): each with its expiry and a Remove button; what was removed, or that the
 * removal failed, is announced. Removing is refused by the server for any card not the user's own.
 */
export const SavedCardsSection = observer(function SavedCardsSection() {
  const { t } = useTranslation();
  const { api } = useStores();
  const store = useScreenStore(() => new SavedCardsStore({ api, enabled: true }), [api]);
  const label = useCardLabel();
  const [removed, setRemoved] = useState<string | null>(null);
  return (
    <section className="account-card saved-card-list" aria-labelledby="saved-cards-title">
      <h2 id="saved-cards-title" className="account-card__title">
        {t('savedCards.account.title')}
      </h2>
      <p className="account-details__empty">{t('savedCards.account.intro')}</p>
      {store.state === 'loading' && store.items.length === 0 && <p role="status">{t('app.loading')}</p>}
      {store.state === 'error' && <p role="alert">{t('savedCards.account.loadFailed')}</p>}
      {store.state === 'ready' && store.items.length === 0 && <p>{t('savedCards.account.empty')}</p>}
      {store.items.length > 0 && (
        <ul className="saved-card-list__items">
          {store.items.map((m) => (
            <li key={m.id} className="saved-card-list__item">
              <span>
                <span className="saved-card-list__name">{label(m)}</span>{' '}
                <span className="account-details__empty">
                  {t('savedCards.expires', { month: String(m.exp_month).padStart(2, '0'), year: m.exp_year })}
                </span>
              </span>
              <button
                type="button"
                className="button button--secondary"
                aria-label={t('savedCards.account.removeLabel', { card: label(m) })}
                disabled={store.removingId !== null}
                aria-busy={store.removingId === m.id || undefined}
                onClick={() => {
                  setRemoved(null);
                  void store.remove(m.id).then((ok) => ok && setRemoved(label(m)));
                }}
              >
                {t('savedCards.account.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="saved-card-list__status">
        {removed ? t('savedCards.account.removed', { card: removed }) : ''}
      </p>
      {store.removeFailed && <p role="alert">{t('savedCards.account.removeFailed')}</p>}
    </section>
  );
});
