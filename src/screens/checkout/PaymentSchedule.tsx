import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { clampPayment } from '../../domain/payment-schedule';
import { longDateLabel, venueDate } from '../../domain/dates';

/**
 * A held cart's payment plan in the order summary (spec sections 3, 4; issue 13): the open parts with their due dates
 * and Upcoming or Overdue, then the payments made so far.
 */
export const PaymentSchedule = observer(function PaymentSchedule() {
  const { t } = useTranslation();
  const { cart, config } = useStores();
  const id = useId();
  const row = cart.cart;
  const money = (v: string) => formatMoney(decimalToMinor(v), config.seller.currency);
  const day = (iso: string) => longDateLabel(venueDate(iso, config.timezone));
  if (!row?.scheduled_payments?.length && !row?.gateway_audit?.length) return null;
  return (
    <div className="payment-schedule">
      {row.scheduled_payments && row.scheduled_payments.length > 0 && (
        <>
          <h3 id={`${id}-plan`} className="payment-schedule__title">
            {t('schedule.title')}
          </h3>
          <ul className="payment-schedule__list" aria-labelledby={`${id}-plan`}>
            {row.scheduled_payments.map((p) => (
              <li key={p.id} className="payment-schedule__part">
                <span>{t('schedule.due', { date: day(p.due_date) })}</span>
                <span className={`payment-schedule__status payment-schedule__status--${p.status}`}>{t(`schedule.${p.status}`)}</span>
                <span>{money(p.amount)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {row.gateway_audit && row.gateway_audit.length > 0 && (
        <>
          <h3 id={`${id}-paid`} className="payment-schedule__title">
            {t('schedule.paidTitle')}
          </h3>
          {/* The gateways' records (spec section 3: capture = Paid, refund = Refund, dispute ...). */}
          <ul className="payment-schedule__list" aria-labelledby={`${id}-paid`}>
            {row.gateway_audit.map((p) => (
              <li key={p.id} className="payment-schedule__part">
                <span>{day(p.occurred_on)}</span>
                <span>{t(auditKey(p.audit_action))}</span>
                <span>{money(p.amount)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
});

const AUDIT_ACTIONS = ['capture', 'refund', 'dispute_opened', 'dispute_closed', 'dispute_fee'];
/** The locale's word for a gateway record's action; an action it does not know reads as a payment. */
const auditKey = (action: string) => `schedule.audit.${AUDIT_ACTIONS.includes(action) ? action : 'capture'}`;

export type PaymentChoice = 'due' | 'outstanding' | 'other';

/**
 * How much to pay now on a payment plan (spec section 4): what is due, the full balance, or another amount kept between
 * the two. Hidden when what is due is the whole balance (only the balance can be paid).
 */
export function PaymentChoiceField({
  due,
  outstanding,
  choice,
  other,
  disabled,
  onChoice,
  onOther,
}: {
  due: number;
  outstanding: number;
  choice: PaymentChoice;
  other: string;
  disabled: boolean;
  onChoice: (c: PaymentChoice) => void;
  onOther: (v: string) => void;
}) {
  const { t } = useTranslation();
  const { config } = useStores();
  const id = useId();
  const money = (minor: number) => formatMoney(minor, config.seller.currency);
  if (due >= outstanding) return null;
  const option = (value: PaymentChoice, label: string) => (
    <label className="payment-choice__option">
      <input
        type="radio"
        name={`${id}-choice`}
        value={value}
        checked={choice === value}
        disabled={disabled}
        onChange={() => onChoice(value)}
      />{' '}
      {label}
    </label>
  );
  return (
    <fieldset className="payment-choice">
      <legend className="payment-choice__legend">{t('schedule.choiceLegend')}</legend>
      {option('due', t('schedule.payDue', { amount: money(due) }))}
      {option('outstanding', t('schedule.payOutstanding', { amount: money(outstanding) }))}
      {option('other', t('schedule.payOther'))}
      {choice === 'other' && (
        <div className="form-field payment-choice__other">
          <label htmlFor={`${id}-other`} className="form-field__label">
            {t('schedule.otherLabel')}
          </label>
          <p id={`${id}-hint`} className="code-form__hint">
            {t('schedule.otherHint', { min: money(due), max: money(outstanding) })}
          </p>
          <input
            id={`${id}-other`}
            className="form-control"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={other}
            disabled={disabled}
            aria-describedby={`${id}-hint`}
            onChange={(e) => onOther(e.target.value)}
            // Kept between what is due and the balance once the shopper leaves the field (spec section 5).
            onBlur={() => onOther((clampPayment(decimalToMinor(other.replace(',', '.')), due, outstanding) / 100).toFixed(2))}
          />
        </div>
      )}
    </fieldset>
  );
}

/** The amount a choice pays, minor units. */
export function chosenAmount(choice: PaymentChoice, other: string, due: number, outstanding: number): number {
  if (due >= outstanding || choice === 'outstanding') return outstanding;
  if (choice === 'due') return due;
  return clampPayment(decimalToMinor(other.replace(',', '.')), due, outstanding);
}
