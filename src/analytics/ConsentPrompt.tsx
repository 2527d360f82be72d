import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Asks the visitor whether the seller may measure the visit (seller config `analytics.require_consent`). A region
 * at the foot of the page, not a dialog: the page stays usable, and keyboard and screen-reader users find it by its
 * heading. It goes away once answered.
 */
export function ConsentPrompt({ onAnswer }: { onAnswer: (granted: boolean) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [answered, setAnswered] = useState(false);
  if (answered) return null;
  const answer = (granted: boolean) => {
    setAnswered(true);
    onAnswer(granted);
  };
  return (
    <section className="consent-prompt" aria-labelledby={titleId}>
      <h2 id={titleId} className="consent-prompt__title">
        {t('analytics.consent.title')}
      </h2>
      <p>{t('analytics.consent.text')}</p>
      <div className="consent-prompt__actions">
        <button type="button" className="button" onClick={() => answer(true)}>
          {t('analytics.consent.accept')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => answer(false)}>
          {t('analytics.consent.decline')}
        </button>
      </div>
    </section>
  );
}
