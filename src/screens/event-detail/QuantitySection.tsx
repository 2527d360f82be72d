import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { TicketGroupRow, TicketTypeRow } from '../../contract/catalogue';
import type { ReservationStore } from '../../stores/ReservationStore';
import { formatMoney } from '../../domain/pricing';
import { moneyToMinor } from '../../domain/quantity';
import { QuantityStepper } from '../../components/QuantityStepper';
import { FlexiblePriceInput } from '../../components/FlexiblePriceInput';

interface Props {
  store: ReservationStore;
  currency: string;
}

/** Steppers by group and type (spec section 5); flexible-price types also get an amount field. */
export const QuantitySection = observer(function QuantitySection({ store, currency }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  if (!store.showsSteppers) return null;

  const money = (value: string | null) => {
    const minor = moneyToMinor(value);
    return minor === null ? '' : formatMoney(minor, currency);
  };

  const typeRow = (group: TicketGroupRow, type: TicketTypeRow) => {
    const flexible = store.isFlexiblePrice(type);
    const count = store.count(type.id);
    return (
      <li key={type.id} className="ticket-type">
        <div className="ticket-type__info">
          <span className="ticket-type__name">{type.name}</span>
          {type.summary && <span className="ticket-type__summary">{type.summary}</span>}
          {!flexible && <span className="ticket-type__price">{money(type.discounted_amount ?? type.currency_amount)}</span>}
          {type.outside_fees?.map((fee) => (
            <span key={fee.name} className="ticket-type__fee">
              {t('quantity.fee', { fee: money(fee.fee), name: fee.name })}
            </span>
          ))}
        </div>
        <QuantityStepper
          name={type.name}
          count={count}
          canIncrement={store.canIncrement(group, type.id)}
          canDecrement={store.canDecrement(group, type.id)}
          onIncrement={() => store.increment(group, type.id)}
          onDecrement={() => store.decrement(group, type.id)}
        />
        {flexible && (
          <FlexiblePriceInput
            name={type.name}
            value={store.priceText(type)}
            min={type.currency_amount_min!}
            max={type.currency_amount_max!}
            minLabel={money(type.currency_amount_min)}
            maxLabel={money(type.currency_amount_max)}
            invalid={store.flexibleAmount(type) === null && (count > 0 || store.attempted)}
            onChange={(value) => store.setFlexiblePrice(type.id, value)}
          />
        )}
      </li>
    );
  };

  return (
    <section className="reserve-section quantity-section" aria-labelledby={titleId} aria-busy={store.detailLoading || undefined}>
      <h3 id={titleId} className="reserve-section__title">
        {t('quantity.legend')}
      </h3>
      {store.detailLoading && <p role="status">{t('quantity.loading')}</p>}
      {store.shownGroups.map(({ group, types }) => {
        const limits = store.limitsOf(group);
        const soldOut = !group.available || limits.groupAvailable === 0 || limits.sessionAvailable === 0;
        return (
          <div key={group.id} className="ticket-group" role="group" aria-labelledby={`${titleId}-${group.id}`}>
            <div className="ticket-group__header">
              <h4 id={`${titleId}-${group.id}`} className="ticket-group__name">
                {group.name}
              </h4>
              {group.summary && <p className="ticket-group__summary">{group.summary}</p>}
              <p className="ticket-group__limits">
                {types.length === 1 && group.min_tickets_per_order > 1 && (
                  <span>{t('quantity.minimum', { count: group.min_tickets_per_order })} </span>
                )}
                {group.max_tickets_per_order > 0 && <span>{t('quantity.maximum', { count: group.max_tickets_per_order })}</span>}
                {soldOut && <span className="ticket-group__sold-out"> {t('quantity.soldOut')}</span>}
              </p>
            </div>
            <ul className="ticket-types">{types.map((type) => typeRow(group, type))}</ul>
          </div>
        );
      })}
    </section>
  );
});
