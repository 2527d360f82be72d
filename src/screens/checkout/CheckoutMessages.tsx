import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useCheckoutStore } from './checkout-store';
import { Link } from 'react-router';
import { paymentReasonKey } from '../../domain/checkout-rules';

/** 'Create an account' with an e-mail that has one (issue 13, spec section 8). */
const ACCOUNT_MESSAGES = {
  guest_account: 'login.errors.guestAccount',
  incorrect_password: 'login.errors.incorrectPassword',
  email_in_use: 'checkout.account.inUse',
} as const;

/** The error summary and payment outcome above the pay button, announced when they appear. */
export const CheckoutMessages = observer(function CheckoutMessages({ showSummary }: { showSummary: boolean }) {
  const { t } = useTranslation();
  const checkout = useCheckoutStore();
  const failure = checkout.failure;
  let message: string | null = null;
  if (showSummary || failure?.kind === 'validation') {
    message = t('checkout.errorSummary');
  } else if (failure?.kind === 'payment') {
    const reason = failure.reason ? paymentReasonKey(failure.reason) : null;
    message = t('payment.failed', { message: reason ? t(reason) : failure.providerMessage || t('payment.generic') });
  } else if (failure?.kind === 'provider' && failure.state === 'loading') {
    // (Stripe.js blocked is said in the card section itself, which paying then focuses.)
    message = t('payment.providerLoading');
  } else if (failure?.kind === 'not_supported') {
    message = t('errors.paymentNotSupported');
  } else if (failure?.kind === 'blocked') {
    message = t('blockedCart.blocked');
  } else if (failure?.kind === 'gift_to_self') {
    message = t('membership.errors.giftToSelf');
  } else if (failure?.kind === 'account') {
    message = t(ACCOUNT_MESSAGES[failure.code]);
  } else if (failure?.kind === 'unexpected' || failure?.kind === 'booked') {
    message = t('payment.unexpected');
  }
  return (
    <div className="checkout-messages" role="alert">
      {message && <p className="notice--error">{message}</p>}
      {/* Spec section 8: incorrect_password comes with the forgot-password link. */}
      {failure?.kind === 'account' && failure.code === 'incorrect_password' && (
        <p>
          <Link to="/user/forgot-password">{t('checkout.account.forgotPassword')}</Link>
        </p>
      )}
    </div>
  );
});
