import { useTranslation } from 'react-i18next';
import { passwordChecklist } from './rules';

/** The live checklist of spec section 5 password rules; each item says whether the password meets it. */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation();
  return (
    <div id={id}>
      <p className="password-rules__title">{t('recovery.reset.rulesTitle')}</p>
      <ul className="password-rules">
        {passwordChecklist(password).map(({ rule, met }) => (
          <li key={rule} className={`password-rules__item password-rules__item--${met ? 'met' : 'unmet'}`} data-rule={rule} data-met={met}>
            <span className="password-rules__mark" aria-hidden="true">
              {met ? '✓' : '•'}
            </span>
            <span>
              {t(`recovery.reset.rule.${rule}`)}
              <span className="visually-hidden"> ({met ? t('recovery.reset.ruleMet') : t('recovery.reset.ruleNotMet')})</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
