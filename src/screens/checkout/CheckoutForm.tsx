import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { ThemedForm } from '../../forms/theme';
import { Modal } from '../../components/Modal';
import { cardAmountSupported, validateCard, type CardErrors, type CardForm, type IdentityFormData } from '../../domain/checkout-rules';
import { CardFields } from './CardFields';
import { TermsField } from './TermsField';
import { CheckoutMessages } from './CheckoutMessages';
import { identityErrorMessages, identitySchema, identityUiSchema, validateIdentity } from './identity-form';
import { useCheckoutStore } from './checkout-store';
import { pendingPath } from './paths';
import { payWithStripe, type StripePaymentHandle } from './stripe-payment';
import { NEW_CARD, SaveCardField, SavedCardChoice } from './SavedCardChoice';
import { SavedCardsStore } from '../../stores/SavedCardsStore';
import { useScreenStore } from '../../stores/lifecycle';
import { AddressFillContext } from './AddressSearch';
import { DonationSection } from './DonationSection';
import { CheckoutUpsell } from './CheckoutUpsell';
import { GiftCardField, useGiftCardStore } from './GiftCardField';
import { BlockedCartForm } from './BlockedCartForm';
import { PaymentChoiceField, chosenAmount, type PaymentChoice } from './PaymentSchedule';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { ScreenSections } from '../../components/ScreenSections';
import type { AddressFill } from '../../domain/address';
import { CaptchaField } from './CaptchaField';
import { captchaFor, type CaptchaHandle } from './captcha';
import { purchaserComplete, type ExpressCheckout } from './express-checkout';
import type { Wallet } from '../../domain/payment-wallet';
import { passwordLogin } from '../../domain/sign-up';
import { validatePasswordForm } from '../../domain/password';
import { AccountOption, NO_ACCOUNT, type AccountChoice } from './AccountOption';
import type { CheckoutOutcome } from '../../stores/CheckoutStore';

// Stripe.js and its React bindings come only with a Stripe seller's checkout (bench/budget.json: no 'stripe' elsewhere).
const StripePayment = lazy(() => import('./StripePayment'));

const EMPTY_CARD: CardForm = { number: '', expiry: '', cvc: '' };

/** Purchaser details (hidden for a logged-in user's own cart), terms, test-mode card and the pay button; one
 *  submit validates all of it. */
export const CheckoutForm = observer(function CheckoutForm({
  free,
  askIdentity = true,
  gateway = 'test',
  amount = 0,
  loginPrompt = null,
}: {
  free: boolean;
  /** 'Already a member? Log in' or 'Purchasing as ...', drawn where the layout puts its section. */
  loginPrompt?: ReactNode;
  askIdentity?: boolean;
  /** The cart's card gateway (cart_fees.gateway_id): Stripe's Payment Element, or the test gateway's card form. */
  gateway?: 'test' | 'stripe';
  /** What is paid, in minor units (the Payment Element offers the wallets for it). */
  amount?: number;
}) {
  const { t, i18n } = useTranslation();
  const { config, session, api, cart } = useStores();
  const navigate = useNavigate();
  // A logged-in shopper's saved cards of this gateway come first (issue 22); a new card may be kept for next time.
  const loggedIn = session.isLoggedIn;
  const savedCards = useScreenStore(() => new SavedCardsStore({ api, enabled: loggedIn && !free }), [api, loggedIn, free]);
  const cards = free ? [] : savedCards.forGateway(gateway);
  const [cardChoice, setCardChoice] = useState<string | null>(null);
  const chosen =
    cardChoice && (cardChoice === NEW_CARD || cards.some((c) => c.id === cardChoice)) ? cardChoice : (cards[0]?.id ?? NEW_CARD);
  const useSaved = chosen !== NEW_CARD;
  const [saveCard, setSaveCard] = useState(false);
  // Gift cards applied at checkout (issue 13) pay first; when they cover the order no card is asked.
  const gift = useGiftCardStore();
  const covered = !free && gift.coversOrder;
  const noCard = free || covered;
  const blocked = (cart.cart?.blocking_rules?.length ?? 0) > 0;
  const stripe = !noCard && !useSaved && gateway === 'stripe';
  const stripeHandle = useRef<StripePaymentHandle | null>(null);
  const checkout = useCheckoutStore();
  // A guest proves a person with the seller's captcha at each checkout call (spec section 2); logged-in users skip it.
  const captcha = captchaFor(config.storefront.captcha_provider, loggedIn);
  const captchaHandle = useRef<CaptchaHandle | null>(null);
  const solveCaptcha = () =>
    captchaHandle.current ? captchaHandle.current.solve() : Promise.reject(new Error('the captcha is not ready'));
  const termsHtml = typeof config.storefront.terms_html === 'string' ? config.storefront.terms_html.trim() : '';
  const [identity, setIdentity] = useState<IdentityFormData>({});
  const [card, setCard] = useState<CardForm>(EMPTY_CARD);
  const [cardErrors, setCardErrors] = useState<CardErrors>({});
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [termsError, setTermsError] = useState(false);
  const [termsModal, setTermsModal] = useState(false);
  const [showSummary, setShowSummary] = useState(false);
  const formRef = useRef<HTMLDivElement>(null);
  const formId = useId();
  // A picked address fills its fields and keeps its Line1 in the search box, in one update of the form (issue 22).
  const fillAddress: AddressFill = (fields) => setIdentity((current) => ({ ...current, ...fields }));
  // 'Create an account with these details' (issue 13): for a guest purchaser where visitors log in with a password.
  const offerAccount = askIdentity && !loggedIn && passwordLogin(config.storefront);
  const [account, setAccount] = useState<AccountChoice>(NO_ACCOUNT);
  const [accountErrors, setAccountErrors] = useState<ReturnType<typeof validatePasswordForm>>({});
  const accountPassword = useRef<HTMLInputElement>(null);
  const accountConfirm = useRef<HTMLInputElement>(null);
  const creating = offerAccount && account.create;
  // The purchaser of the attempt under way (its 3-D Secure retry completes it).
  const lastPurchaser = useRef<IdentityFormData | null>(null);

  // A payment plan (issue 13): what is due now, and the shopper's choice of what to pay.
  const owed = decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding);
  const due = cart.cart?.amount_due_now !== undefined ? decimalToMinor(cart.cart.amount_due_now) : null;
  const [choice, setChoice] = useState<PaymentChoice>('due');
  const [other, setOther] = useState('');
  const [received, setReceived] = useState<{ paid: number; rest: number } | null>(null);

  /** Spec section 4's partial result: the cart is read again, the page goes to the top, the card and terms start afresh. */
  const afterPart = (paid: number) => {
    setCard(EMPTY_CARD);
    setTermsAccepted(false);
    setChoice('due');
    setOther('');
    setReceived({ paid, rest: decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding) });
    window.scrollTo({ top: 0 });
  };
  /** The account made with the order (issue 13) is the visitor's at once: logged in, the confirmation and the header
   *  say so. A failed login changes nothing about the order; the visitor logs in later with the same password. */
  const logInToNewAccount = (outcome: CheckoutOutcome) => {
    const purchaser = lastPurchaser.current;
    if (outcome.kind !== 'completed' || !purchaser?.password || !purchaser.email) return;
    session.login({ username: purchaser.email.trim(), password: purchaser.password }).catch(() => undefined);
  };
  const finish = async (promise: ReturnType<typeof checkout.submit>) => {
    // A completed checkout is followed by the screen (it watches checkout.completedOrderIds).
    const outcome = await promise;
    logInToNewAccount(outcome);
    if (outcome.kind === 'partial') afterPart(outcome.paid);
    if (outcome.kind === 'failed' && checkout.failure?.kind === 'payment') setCard((c) => ({ ...c, cvc: '' }));
  };

  /** What every payment of this checkout carries: keep the card, the gift cards first, a plan's part, the captcha. */
  const keepOptions = () => ({
    savePaymentMethod: loggedIn && saveCard && !covered,
    giftCards: gift,
    amount: due !== null ? chosenAmount(choice, other, due, owed) : null,
    captcha: captcha ? solveCaptcha : null,
  });
  /** Pays with Stripe: the Payment Element's card, or a wallet of the Express Checkout Element; true once paid or paying. */
  const payByStripe = async (
    handle: StripePaymentHandle | null,
    purchaser: IdentityFormData | null,
    keep: Parameters<typeof checkout.submit>[2],
    wallet?: Wallet,
  ) => {
    const outcome = await payWithStripe(handle, checkout, purchaser, keep, wallet);
    if (outcome.kind === 'completed') logInToNewAccount(outcome);
    if (outcome.kind === 'pending') navigate(pendingPath(outcome.cartId), { replace: true });
    if (outcome.kind === 'partial') afterPart(outcome.paid);
    // Stripe.js blocked: the card section says so; take the shopper there.
    if (outcome.kind === 'unavailable') formRef.current?.querySelector<HTMLElement>('.stripe-payment__unavailable')?.focus();
    return outcome.kind === 'completed' || outcome.kind === 'pending' || outcome.kind === 'partial';
  };
  // Apple Pay and Google Pay (issue 14): the wallet's click wants the purchaser and terms complete at once (else the
  // form shows what is missing, as Pay does); its confirm pays through the same checkout call as the card.
  const express: ExpressCheckout = {
    texts: {
      total: t('payment.walletTotal'),
      shipping: t('payment.walletShippingEmail'),
      shippingDetail: t('payment.walletShippingEmailDetail'),
    },
    onClick: () => {
      const accountOk = !creating || Object.keys(validatePasswordForm(account.password, account.confirm)).length === 0;
      const ready = (!askIdentity || purchaserComplete(identity)) && accountOk && (!termsHtml || termsAccepted);
      if (!ready) document.querySelector<HTMLFormElement>(`form[id="${CSS.escape(formId)}"]`)?.requestSubmit();
      return ready;
    },
    onConfirm: (handle, wallet) => {
      checkout.clearFailure();
      const purchaser = askIdentity ? (creating ? { ...identity, password: account.password } : identity) : null;
      lastPurchaser.current = purchaser;
      return payByStripe(handle, purchaser, keepOptions(), wallet);
    },
  };

  /** Runs after @rjsf validated the purchaser: the card and terms are checked together with it. */
  const attempt = (identityValid: boolean, data?: IdentityFormData) => {
    checkout.clearFailure();
    const nextCardErrors = noCard || stripe || useSaved ? {} : validateCard(card, new Date());
    const termsOk = !termsHtml || termsAccepted;
    const nextAccountErrors = creating ? validatePasswordForm(account.password, account.confirm) : {};
    const accountOk = !nextAccountErrors.password && !nextAccountErrors.confirm;
    setCardErrors(nextCardErrors);
    setAccountErrors(nextAccountErrors);
    setTermsError(!termsOk);
    const cardOk = Object.keys(nextCardErrors).length === 0;
    if (!identityValid || !accountOk || !cardOk || !termsOk) {
      setShowSummary(!identityValid || !accountOk || !cardOk);
      if (identityValid && !accountOk) {
        // @rjsf focuses its own first invalid field; the account's password comes right after the purchaser's details.
        (nextAccountErrors.password ? accountPassword : accountConfirm).current?.focus();
      } else if (identityValid && !cardOk) {
        // @rjsf focuses its own first invalid field; the card fields come after it.
        requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('.card-form [aria-invalid="true"]')?.focus());
      } else if (identityValid && cardOk && !termsOk) {
        setTermsModal(true);
      }
      return;
    }
    setShowSummary(false);
    // A card amount the card cannot take (below 0.50): nothing is charged, gift cards included; the warning says why.
    if (!noCard && cardAmount > 0 && !cardAmountSupported(cardAmount, config.seller.currency)) {
      formRef.current?.querySelector<HTMLElement>('.checkout-form__amount-warning')?.focus();
      return;
    }
    const details = data ?? identity;
    const purchaser = askIdentity ? (creating ? { ...details, password: account.password } : details) : null;
    lastPurchaser.current = purchaser;
    setReceived(null);
    const keep = keepOptions();
    if (covered) {
      void finish(checkout.submit(purchaser, null, keep));
      return;
    }
    if (useSaved) {
      void finish(checkout.submit(purchaser, { kind: 'saved', id: chosen }, keep));
      return;
    }
    if (stripe) {
      void payByStripe(stripeHandle.current, purchaser, keep);
      return;
    }
    void finish(checkout.submit(purchaser, free ? null : card, keep));
  };

  // What the card pays: the plan's chosen part, or what the gift cards leave, or the balance.
  const cardAmount = due !== null ? chosenAmount(choice, other, due, owed) : gift.pending.length > 0 ? gift.plan.rest : amount;
  const payment = (
    <>
      {!free && due !== null && (
        <PaymentChoiceField
          due={due}
          outstanding={owed}
          choice={choice}
          other={other}
          disabled={checkout.submitting}
          onChoice={setChoice}
          onOther={setOther}
        />
      )}
      {!free && <GiftCardField disabled={checkout.submitting} />}
      {!covered && cards.length > 0 && (
        <SavedCardChoice cards={cards} value={chosen} disabled={checkout.submitting} onChange={setCardChoice} />
      )}
      {!noCard && cardAmount > 0 && !cardAmountSupported(cardAmount, config.seller.currency) && (
        <p className="notice--warning checkout-form__amount-warning" role="alert" tabIndex={-1}>
          {t('errors.paymentNotSupported')}
        </p>
      )}
      {!noCard && !stripe && !useSaved && (
        <CardFields value={card} errors={cardErrors} disabled={checkout.submitting} onChange={setCard} formId={formId} />
      )}
      {stripe && (
        <Suspense fallback={<p className="form-loading">{t('app.loading')}</p>}>
          <StripePayment
            publishableKey={checkout.stripePublishableKey}
            amount={cardAmount}
            currency={config.seller.currency}
            disabled={checkout.submitting}
            handleRef={stripeHandle}
            express={express}
          />
        </Suspense>
      )}
      {!noCard && !useSaved && loggedIn && <SaveCardField checked={saveCard} disabled={checkout.submitting} onChange={setSaveCard} />}
    </>
  );

  // The purchaser form is the one <form>: the pay button and the card fields outside it name it (form=), so the
  // seller's layout may put the sections in any order and Enter in any field still pays.
  const purchaser = askIdentity ? (
    <AddressFillContext value={fillAddress}>
      <ThemedForm<IdentityFormData>
        id={formId}
        schema={identitySchema}
        uiSchema={identityUiSchema(t, { lookup: config.flags.address_lookup === true, locale: i18n.language })}
        formData={identity}
        disabled={checkout.submitting}
        customValidate={validateIdentity(t)}
        errorMessages={identityErrorMessages}
        onChange={(e) => setIdentity(e.formData ?? {})}
        onError={() => attempt(false)}
        onSubmit={(e) => attempt(true, e.formData)}
      >
        {/* no button of its own: the submit section's pay button submits it */}
        <></>
      </ThemedForm>
    </AddressFillContext>
  ) : (
    // A logged-in user's own cart: the purchaser is the user, so only payment and terms are asked.
    <form
      id={formId}
      className="checkout-form__payment"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        attempt(true);
      }}
    />
  );

  return (
    <div ref={formRef} className="checkout-form">
      {received && (
        <p className="checkout-form__received" role="status">
          {t('schedule.received', {
            amount: formatMoney(received.paid, config.seller.currency),
            rest: formatMoney(received.rest, config.seller.currency),
          })}
        </p>
      )}
      <ScreenSections
        screen="checkout"
        sections={{
          purchaser: () => (
            <section className="checkout-form__purchaser" aria-labelledby={`${formId}-title`}>
              <h2 id={`${formId}-title`} className="checkout-page__section-title">
                {t('checkout.purchaserTitle')}
              </h2>
              {loginPrompt}
              {purchaser}
              {offerAccount && (
                <AccountOption
                  value={account}
                  errors={accountErrors}
                  disabled={checkout.submitting}
                  onChange={setAccount}
                  passwordRef={accountPassword}
                  confirmRef={accountConfirm}
                  form={formId}
                />
              )}
            </section>
          ),
          payment: () => payment,
          // An order's edit (issue 17) only moves its tickets: nothing is added to it.
          upsell: () => (cart.cart?.edit_order_id ? null : <CheckoutUpsell />),
          donation: () => (cart.cart?.edit_order_id ? null : <DonationSection />),
          terms: () =>
            termsHtml ? (
              <TermsField
                html={termsHtml}
                accepted={termsAccepted}
                error={termsError}
                disabled={checkout.submitting}
                modalOpen={termsModal}
                onModalOpenChange={setTermsModal}
                onChange={(v) => {
                  setTermsAccepted(v);
                  if (v) setTermsError(false);
                }}
                onDecline={() => {
                  setTermsAccepted(false);
                  setTermsError(true);
                }}
              />
            ) : null,
          submit: () => (
            <div className="checkout-form__submit">
              <BlockedCartForm />
              <CheckoutMessages showSummary={showSummary} />
              {captcha && <CaptchaField provider={captcha} challenge={checkout.captchaChallenge} handleRef={captchaHandle} />}
              {/* A checkout rule holding the cart (issue 13): the code form above comes first, then the pay button. */}
              {!blocked && (
                <button
                  type="submit"
                  form={formId}
                  className="button checkout-form__pay"
                  disabled={checkout.submitting}
                  aria-busy={checkout.submitting || undefined}
                >
                  {noCard ? t('checkout.completeOrder') : t('checkout.payNow')}
                </button>
              )}
              {checkout.submitting && (
                <p className="checkout-form__processing" role="status">
                  {t('checkout.processing')}
                </p>
              )}
            </div>
          ),
        }}
      />
      {checkout.pendingIntentId && !checkout.pendingClientSecret && (
        <Modal title={t('payment.confirmTitle')} onClose={checkout.cancelPendingAction}>
          <p>{t('payment.confirmBody')}</p>
          <div className="modal__actions">
            <button type="button" className="button button--secondary" onClick={checkout.cancelPendingAction}>
              {t('payment.confirmCancel')}
            </button>
            <button type="button" className="button" onClick={() => void finish(checkout.confirmPendingAction())}>
              {t('payment.confirm')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
});
