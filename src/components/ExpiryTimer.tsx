import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { timerTier } from '../domain/cart-rules';
import { clockText } from '../domain/cart-rules';

/**
 * The cart hold countdown (spec sections 4 and 9): hidden at 20 minutes or more; info above 300 s, warning
 * from 120 to 300 s, error below. The cart store's clock ticks every second. Screen readers get the time as
 * a timer (not announced each second); the extend and expiry dialogs announce the moments that matter.
 */
export const ExpiryTimer = observer(function ExpiryTimer({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { cart, config } = useStores();
  const left = cart.secondsLeft;
  if (left === null || cart.cart?.state !== 'pending') return null;
  const tier = timerTier(left, config.flags.extend_timer === true);
  if (tier === 'hidden') return null;
  return (
    <p className={`expiry-timer expiry-timer--${tier}${compact ? ' expiry-timer--compact' : ''}`} role="timer" aria-live="off">
      {compact ? t('timer.compact', { time: clockText(left) }) : t('timer.text', { time: clockText(left) })}
    </p>
  );
});
