import { useEffect, useId, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TicketGroupRow, TicketTypeRow } from '../../contract/catalogue';
import { SurveyForm, type SurveyFormHandle } from '../event-detail/SurveySection';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { useSessionSettled } from '../../stores/session-settled';
import { MembershipFormStore, type Recipient } from '../../stores/MembershipFormStore';
import { membershipApi } from '../../stores/membership-api';
import { browserIntentStorage } from '../../stores/membership-intent';
import { memberSettings } from '../../domain/membership';
import { maxShown, showsStepper, slotKey, MEMBER_NAME_MAX, type LevelRule } from '../../domain/membership-form';
import { formatMoney } from '../../domain/pricing';
import { moneyToMinor } from '../../domain/quantity';
import { QuantityStepper } from '../../components/QuantityStepper';
import { Modal } from '../../components/Modal';
import '../../styles/membership.css';
import { LoadFailed } from '../../components/LoadFailed';

interface Props {
  eventId: string;
  action?: string;
  /** the membership group's types: the levels */
  types: TicketTypeRow[];
  /** the membership group (its survey) */
  group?: TicketGroupRow | null;
}

/**
 * The buy-membership form (spec section 2, in its order): previous membership, notice, level picker, member details
 * per the level's rules, recipient when gifting, auto-renew yes/no, footnote, submit and back link.
 */
export const MembershipForm = observer(function MembershipForm({ eventId, action, types, group = null }: Props) {
  const { t } = useTranslation();
  const root = useStores();
  const navigate = useNavigate();
  const titleId = useId();
  const { session, cart, config } = root;
  const store = useScreenStore(
    () =>
      new MembershipFormStore({
        api: membershipApi(root.api),
        cart,
        session,
        types,
        group,
        action,
        settings: memberSettings(config.storefront as { membership?: Record<string, unknown> }),
        timezone: config.timezone,
        intents: browserIntentStorage(),
      }),
    // A login (or its membership arriving) makes a new form: renew and prefill follow the member.
    [eventId, action, session.isLoggedIn, session.memberships],
  );
  // Buy or renew, and the renewal's prefill, follow the member: the form loads once the session is known.
  const settled = useSessionSettled(session);
  useEffect(() => {
    if (settled) void store.load();
  }, [store, settled]);

  const currency = config.seller.currency;
  const money = (value: string) => {
    const minor = moneyToMinor(value);
    return minor === null ? '' : formatMoney(minor, currency);
  };
  const submit = async (run: () => Promise<boolean>) => {
    if (await run()) navigate('/checkout');
  };
  const surveyForm = useRef<SurveyFormHandle | null>(null);

  if (!settled || store.state === 'loading')
    return (
      <p role="status" className="reserve__status">
        {t('reserve.loading')}
      </p>
    );
  if (store.state === 'error') return <LoadFailed onRetry={() => void store.load()} />;
  if (store.shownLevels.length === 0) return <p className="notice notice--info">{t('membership.form.noLevels')}</p>;

  const mode = store.mode;
  const level = store.selectedLevel;
  const title =
    mode === 'gift' ? t('membership.form.giftTitle') : mode === 'renew' ? t('membership.form.renewTitle') : t('membership.form.title');
  return (
    <section className="reserve membership-form" aria-labelledby={titleId}>
      <h2 id={titleId} className="reserve__title">
        {title}
      </h2>
      {store.previous && mode !== 'gift' && (
        <p className="membership-form__previous">
          {t('membership.form.previous', { level: store.previousLevelName ?? '', date: store.previousExpiry ?? '' })}
        </p>
      )}
      {store.renewFromLabel && (
        <p className="notice notice--info">{t('membership.errors.renewalNotOpen', { date: store.renewFromLabel })}</p>
      )}

      <fieldset className="reserve-section membership-levels">
        <legend className="reserve-section__title">{t('membership.form.levelLegend')}</legend>
        <div className="membership-levels__options">
          {store.shownLevels.map((l) => (
            <label key={l.typeId} className={`admission-option${store.selectedTypeId === l.typeId ? ' admission-option--selected' : ''}`}>
              <input
                type="radio"
                name={`${titleId}-level`}
                value={l.typeId}
                checked={store.selectedTypeId === l.typeId}
                onChange={() => store.selectLevel(l.typeId)}
              />
              <span className="admission-option__text">
                <span className="admission-option__label">
                  {l.name} <span className="membership-levels__price">{money(l.price)}</span>
                </span>
                {l.summary && <span className="admission-option__hint">{l.summary}</span>}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {level && store.rules.map((rule) => <MemberRuleSection key={rule.partyRole} store={store} rule={rule} levelName={level.name} />)}

      {mode === 'gift' && <RecipientSection store={store} />}

      {level && store.survey && <SurveySection store={store} formRef={surveyForm} />}

      {level && store.asksAutoRenew && (
        <fieldset className="reserve-section membership-autorenew">
          <legend className="reserve-section__title">{t('membership.form.autoRenewLegend')}</legend>
          <div className="membership-autorenew__options">
            {[true, false].map((value) => (
              <label key={String(value)} className="membership-autorenew__option">
                <input
                  type="radio"
                  name={`${titleId}-autorenew`}
                  checked={store.autoRenew === value}
                  onChange={() => store.setAutoRenew(value)}
                />{' '}
                {value ? t('membership.form.autoRenewYes') : t('membership.form.autoRenewNo')}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <p className="membership-form__footnote">{t(mode === 'gift' ? 'membership.form.giftFootnote' : 'membership.form.footnote')}</p>

      <div className="reserve-submit">
        <div aria-live="assertive" className="reserve-submit__message">
          {store.notice && (
            <p className="notice notice--error" role="alert">
              {t(store.notice.key, store.notice.params)}
              {store.notice.key === 'membership.errors.giftToSelfForm' && (
                <>
                  {' '}
                  <Link to={`/events/${encodeURIComponent(eventId)}`}>{t('membership.form.buyOrRenew')}</Link>
                </>
              )}
            </p>
          )}
        </div>
        <div className="reserve-submit__actions">
          <button
            type="button"
            className="button reserve-submit__button"
            onClick={() => void submit(() => store.submit(surveyForm.current?.validateForm() ?? true))}
            disabled={store.submitting}
          >
            {store.submitting ? t('reserve.submitting') : t(mode === 'gift' ? 'membership.form.submitGift' : 'membership.form.submit')}
          </button>
          <Link to="/events" className="back-link">
            {t('reserve.back')}
          </Link>
        </div>
      </div>

      {store.dialog === 'login-or-guest' && (
        <Modal title={t('membership.form.loginOrGuestTitle')} onClose={store.closeDialog}>
          <p>{t('membership.form.loginOrGuestText')}</p>
          <div className="membership-dialog__actions">
            <button
              type="button"
              className="button"
              onClick={() => {
                store.closeDialog();
                root.ui.openModal('login');
              }}
            >
              {t('membership.form.logIn')}
            </button>
            <button type="button" className="button button--secondary" onClick={() => void submit(store.continueAsGuest)}>
              {t('membership.form.continueAsGuest')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
});

/** One party role of the level: its count (no stepper when min equals max) and, for named roles, a name per member. */
const MemberRuleSection = observer(function MemberRuleSection({
  store,
  rule,
  levelName,
}: {
  store: MembershipFormStore;
  rule: LevelRule;
  levelName: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const role = t(`membership.form.role.${rule.partyRole}`, { defaultValue: rule.partyRole });
  const count = store.count(rule.partyRole);
  return (
    <fieldset className="reserve-section membership-members">
      <legend className="reserve-section__title">{t('membership.form.membersLegend', { role, level: levelName })}</legend>
      {showsStepper(rule) && (
        <div className="ticket-type">
          <div className="ticket-type__info">
            <span className="ticket-type__name">{role}</span>
            <span className="ticket-type__summary">{t('membership.form.between', { min: rule.min, max: maxShown(rule) })}</span>
          </div>
          <QuantityStepper
            name={role}
            count={count}
            canIncrement={store.canIncrement(rule)}
            canDecrement={store.canDecrement(rule)}
            onIncrement={() => store.increment(rule)}
            onDecrement={() => store.decrement(rule)}
          />
        </div>
      )}
      {rule.named !== 'no' && (
        <div className="admit-grid">
          {Array.from({ length: count }, (_, i) => {
            const key = slotKey(rule.partyRole, i);
            const error = store.nameError(rule, i);
            const required = rule.named === 'yes';
            return (
              <div key={key} className={`field${error ? ' field--invalid' : ''}`}>
                <label htmlFor={`${id}-${i}`}>
                  {t('membership.form.memberName', { role, number: i + 1 })}
                  {!required && <span className="field__optional"> {t('admit.optional')}</span>}
                </label>
                <input
                  id={`${id}-${i}`}
                  type="text"
                  autoComplete="off"
                  maxLength={MEMBER_NAME_MAX + 1}
                  value={store.names[key] ?? ''}
                  required={required}
                  aria-invalid={!!error || undefined}
                  aria-describedby={error ? `${id}-${i}-error` : undefined}
                  onChange={(e) => store.setName(key, e.target.value)}
                />
                {error && (
                  <span id={`${id}-${i}-error`} className="field__error">
                    {t(error)}
                  </span>
                )}
              </div>
            );
          })}
        </div>
      )}
    </fieldset>
  );
});

/** Who receives the gift (spec section 5: first name, last name and e-mail; no password or newsletter). */
const RecipientSection = observer(function RecipientSection({ store }: { store: MembershipFormStore }) {
  const { t } = useTranslation();
  const id = useId();
  const fields: Array<{ field: keyof Recipient; label: string; type: string; autoComplete: string }> = [
    { field: 'first_name', label: t('membership.form.recipientFirstName'), type: 'text', autoComplete: 'off' },
    { field: 'last_name', label: t('membership.form.recipientLastName'), type: 'text', autoComplete: 'off' },
    { field: 'email', label: t('membership.form.recipientEmail'), type: 'email', autoComplete: 'off' },
  ];
  return (
    <fieldset className="reserve-section membership-recipient">
      <legend className="reserve-section__title">{t('membership.form.recipientLegend')}</legend>
      <div className="admit-grid">
        {fields.map(({ field, label, type, autoComplete }) => {
          const error = store.recipientError(field);
          return (
            <div key={field} className={`field${error ? ' field--invalid' : ''}`}>
              <label htmlFor={`${id}-${field}`}>{label}</label>
              <input
                id={`${id}-${field}`}
                type={type}
                autoComplete={autoComplete}
                value={store.recipient[field]}
                required
                aria-invalid={!!error || undefined}
                aria-describedby={error ? `${id}-${field}-error` : undefined}
                onChange={(e) => store.setRecipient(field, e.target.value)}
              />
              {error && (
                <span id={`${id}-${field}-error`} className="field__error">
                  {t(error)}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
});

/** The membership group's survey (spec section 2, after the recipient and before auto-renew). */
const SurveySection = observer(function SurveySection({
  store,
  formRef,
}: {
  store: MembershipFormStore;
  formRef: { current: SurveyFormHandle | null };
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const survey = store.survey!;
  return (
    <section className="reserve-section survey-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">
        {t('survey.legend')}
      </h3>
      <SurveyForm
        groupId={survey.groupId}
        spec={survey.spec}
        answers={store.surveyAnswers}
        onAnswers={store.setSurveyAnswers}
        onForm={(form) => {
          formRef.current = form;
        }}
      />
    </section>
  );
});
