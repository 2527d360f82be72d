import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { loadStripe, type Stripe, type StripeElements } from '@stripe/stripe-js';
import { Elements, ExpressCheckoutElement, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { PAYMENT_METHOD_ORDER, stripeLoadTimeoutMs, type StripePaymentHandle } from './stripe-payment';
import {
  availableWallets,
  clickResolveDetails,
  expressCheckoutOptions,
  walletOf,
  type ExpressCheckout,
  type Wallet,
} from './express-checkout';

/**
 * The Stripe card section (issue 14): Stripe.js and the Payment Element, loaded only when the checkout's gateway is
 * Stripe (this module is a lazy chunk of the checkout; no other route fetches js.stripe.com). The Payment Element makes
 * a PaymentMethod; the server creates and confirms the PaymentIntent for its own total. When Stripe.js cannot load (a
 * content blocker, no network) the spec's message shows instead of the form, and nothing of the order is lost.
 */
interface Props {
  /** GET config?key._in=payments: the seller's publishable key (CheckoutStore.stripePublishableKey). */
  publishableKey: () => Promise<string | null>;
  /** Minor units of `currency`, what the server will charge (the Payment Element shows wallets for it). */
  amount: number;
  currency: string;
  disabled: boolean;
  handleRef: Ref<StripePaymentHandle | null>;
  /** Apple Pay and Google Pay above the card form (issue 14), when the browser has either */
  express?: ExpressCheckout;
}

type Loaded = { state: 'loading' } | { state: 'ready'; stripe: Stripe } | { state: 'failed' };

const cache = new Map<string, Promise<Stripe | null>>();

/** The publishable key, then Stripe.js (one load per key and page). */
async function stripeFor(publishableKey: () => Promise<string | null>): Promise<Stripe | null> {
  const key = await publishableKey();
  if (!key) return null;
  let loading = cache.get(key);
  if (!loading) {
    loading = Promise.race([loadStripe(key), new Promise<null>((resolve) => setTimeout(() => resolve(null), stripeLoadTimeoutMs()))]).catch(
      () => null,
    );
    // A failed load may succeed on the next visit (the blocker turned off): do not keep the failure.
    void loading.then((s) => (s ? undefined : cache.delete(key)));
    cache.set(key, loading);
  }
  return loading;
}

export default function StripePayment({ publishableKey, amount, currency, disabled, handleRef, express }: Props) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    stripeFor(publishableKey)
      .catch(() => null)
      .then((stripe) => {
        if (live) setLoaded(stripe ? { state: 'ready', stripe } : { state: 'failed' });
      });
    return () => {
      live = false;
    };
  }, [publishableKey]);

  // Until Stripe answers, the pay button has nothing to pay with and says so.
  const inner = useRef<StripePaymentHandle | null>(null);
  useImperativeHandle(
    handleRef,
    () => ({
      createPaymentMethod: () =>
        loaded.state === 'ready' && inner.current ? inner.current.createPaymentMethod() : unavailable(loaded.state).createPaymentMethod(),
      handleNextAction: (secret) =>
        inner.current ? inner.current.handleNextAction(secret) : unavailable('loading').handleNextAction(secret),
    }),
    [loaded.state],
  );

  return (
    <fieldset className="card-form card-form--stripe">
      <legend className="card-form__legend">{t('payment.cardTitle')}</legend>
      {loaded.state === 'loading' && (
        <p className="form-loading" role="status">
          {t('app.loading')}
        </p>
      )}
      {loaded.state === 'failed' && (
        <p className="notice--error stripe-payment__unavailable" role="alert" tabIndex={-1}>
          {t('payment.providerUnavailable', { provider: 'Stripe' })}
        </p>
      )}
      {loaded.state === 'ready' && (
        <Elements
          stripe={loaded.stripe}
          options={{
            mode: 'payment',
            amount,
            currency: currency.toLowerCase(),
            paymentMethodCreation: 'manual',
          }}
        >
          {express && amount > 0 && <ExpressButtons amount={amount} disabled={disabled} express={express} />}
          <StripeFields disabled={disabled} handleRef={inner} />
        </Elements>
      )}
    </fieldset>
  );
}

/** The handle while Stripe.js is not there: paying says why instead of doing nothing. */
function unavailable(state: Loaded['state']): StripePaymentHandle {
  return {
    createPaymentMethod: async () => ({ kind: 'unavailable', loading: state === 'loading' }),
    handleNextAction: async () => ({ ok: false, message: '' }),
  };
}

function StripeFields({ disabled, handleRef }: { disabled: boolean; handleRef: Ref<StripePaymentHandle | null> }) {
  const stripe = useStripe();
  const elements = useElements();
  const box = useRef<HTMLDivElement>(null);
  useImperativeHandle(handleRef, () => (stripe && elements ? handle(stripe, elements, box) : unavailable('loading')), [stripe, elements]);
  return (
    <div ref={box} className="stripe-payment">
      <PaymentElement options={{ readOnly: disabled, layout: 'tabs', paymentMethodOrder: [...PAYMENT_METHOD_ORDER] }} />
    </div>
  );
}

/**
 * The wallet buttons, 48 px high, Apple Pay then Google Pay (spec sections 2 and 9); shown only when the browser has a
 * wallet (its ready event lists them). A wallet's confirm makes the PaymentMethod from the same Elements group and pays
 * through the same checkout call as a typed card.
 */
function ExpressButtons({ amount, disabled, express }: { amount: number; disabled: boolean; express: ExpressCheckout }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const box = useRef<HTMLDivElement>(null);
  const [wallets, setWallets] = useState<Wallet[] | null>(null);
  if (!stripe || !elements) return null;
  return (
    <div ref={box} className="stripe-express" hidden={wallets?.length === 0}>
      <ExpressCheckoutElement
        options={expressCheckoutOptions()}
        onReady={(event) => setWallets(availableWallets(event.availablePaymentMethods))}
        onClick={(event) => {
          if (disabled || !express.onClick()) return event.reject();
          event.resolve(clickResolveDetails(amount, express.texts));
        }}
        onConfirm={async (event) => {
          const paid = await express.onConfirm(handle(stripe, elements, box), walletOf(event.expressPaymentType));
          if (!paid) event.paymentFailed({ reason: 'fail' });
        }}
      />
      {wallets && wallets.length > 0 && <p className="stripe-express__or">{t('payment.walletOr')}</p>}
    </div>
  );
}

function handle(stripe: Stripe, elements: StripeElements, box: React.RefObject<HTMLDivElement | null>): StripePaymentHandle {
  return {
    async createPaymentMethod() {
      const submitted = await elements.submit();
      if (submitted.error) {
        if (submitted.error.type === 'validation_error') {
          // Spec section 5: the payment element's validation error is scrolled to and focused.
          box.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
          elements.getElement('payment')?.focus();
          return { kind: 'invalid' };
        }
        return { kind: 'error', message: submitted.error.message ?? '' };
      }
      const made = await stripe.createPaymentMethod({ elements });
      if (made.error) return { kind: 'error', message: made.error.message ?? '' };
      return { kind: 'ok', paymentMethodId: made.paymentMethod.id };
    },
    async handleNextAction(clientSecret) {
      const result = await stripe.handleNextAction({ clientSecret });
      return result.error ? { ok: false, message: result.error.message ?? '' } : { ok: true };
    },
  };
}
