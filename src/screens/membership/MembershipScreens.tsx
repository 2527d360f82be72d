import { useEffect, useId } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, Route, Routes, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { useSessionSettled } from '../../stores/session-settled';
import { CancelAutoRenewStore, membershipActionsApi, RedeemStore } from '../../stores/MembershipActionsStore';
import { membershipTarget } from '../../domain/membership-routes';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import '../account/account.css';

/** The membership routes in one chunk (spec section 2): /membership/redeem, /membership/{action?} and
 *  /manage/{ticketOrderId}/cancel-auto-renew. */
export function MembershipArea() {
  const { id } = useParams();
  if (id) return <CancelAutoRenewScreen />;
  return (
    <Routes>
      <Route path="redeem" element={<RedeemScreen />} />
      <Route path=":action?" element={<MembershipRedirect />} />
    </Routes>
  );
}

/**
 * /membership/{action?} and /membership/renew (spec section 2): to the seller's external membership URL plus the
 * action, else to the membership event with the action, else 'Memberships are not available at this time.'
 */
export const MembershipRedirect = observer(function MembershipRedirect() {
  const { t } = useTranslation();
  const { action } = useParams();
  const { config } = useStores();
  const target = membershipTarget(config.storefront as Parameters<typeof membershipTarget>[0], action);
  const externalUrl = target.kind === 'external' ? target.url : null;
  useEffect(() => {
    if (externalUrl) window.location.assign(externalUrl);
  }, [externalUrl]);
  useDocumentTitle(t('membership.title'));
  if (target.kind === 'event') return <Navigate to={target.path} replace />;
  if (target.kind === 'external')
    return (
      <p className="container page page-status" role="status">
        {t('app.loading')}
      </p>
    );
  return (
    <div className="container page">
      <ScreenContent screen="membership">
        <h1 className="page-title">{t('membership.title')}</h1>
        <p className="notice notice--info">{t('membership.unavailable')}</p>
      </ScreenContent>
    </div>
  );
});

/** /membership/redeem?gift_code=: a gift of membership redeemed by the logged-in user (spec sections 2, 5, 8). */
export const RedeemScreen = observer(function RedeemScreen() {
  const { t } = useTranslation();
  const root = useStores();
  const { config, session, ui } = root;
  const [search] = useSearchParams();
  const inputId = useId();
  const settled = useSessionSettled(session);
  const store = useScreenStore(
    () =>
      new RedeemStore({
        api: membershipActionsApi(root.api),
        initialCode: search.get('gift_code'),
        onRedeemed: () => session.loadMemberships(),
      }),
    [root],
  );
  useDocumentTitle(t('membership.redeem.title'));
  useEffect(() => {
    if (store.code) void store.check();
  }, [store]);
  // Spec section 2: redeeming needs a membership event, else /membership says what there is.
  if (!(config.storefront as { membership_event_id?: string | null }).membership_event_id) return <Navigate to="/membership" replace />;

  return (
    <div className="container page recovery-page">
      <ScreenContent screen="membership">
        <h1 className="page-title">{t('membership.redeem.title')}</h1>
        {store.state === 'redeemed' ? (
          <div role="status">
            <p className="notice notice--info">{t('membership.redeem.done')}</p>
            <p>
              <Link to="/my/membership">{t('membership.redeem.see')}</Link>
            </p>
          </div>
        ) : (
          <>
            <p>{t('membership.redeem.intro')}</p>
            <form
              className="recovery-card recovery-form"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (session.isLoggedIn) void store.redeem();
                else void store.check();
              }}
            >
              <div className="field">
                <label htmlFor={inputId}>{t('membership.redeem.code')}</label>
                <input
                  id={inputId}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={40}
                  value={store.code}
                  aria-invalid={!!store.message || undefined}
                  aria-describedby={store.message ? `${inputId}-error` : undefined}
                  onChange={(e) => store.setCode(e.target.value)}
                />
              </div>
              <button type="submit" className="button" disabled={store.state === 'checking' || store.state === 'redeeming'}>
                {session.isLoggedIn ? t('membership.redeem.submit') : t('membership.redeem.check')}
              </button>
            </form>
            <div aria-live="assertive">
              {store.message && (
                <p id={`${inputId}-error`} className="notice notice--error" role="alert">
                  {t(store.message)}
                </p>
              )}
            </div>
            {store.state === 'valid' && settled && !session.isLoggedIn && (
              <div className="notice notice--info">
                <p>{t('membership.redeem.valid')}</p>
                <button type="button" className="button" aria-haspopup="dialog" onClick={() => ui.openModal('login')}>
                  {t('membership.redeem.logInToRedeem')}
                </button>
              </div>
            )}
          </>
        )}
      </ScreenContent>
    </div>
  );
});

/** /manage/{ticketOrderId}/cancel-auto-renew (spec section 2): confirm and cancel, then the outcome. */
export const CancelAutoRenewScreen = observer(function CancelAutoRenewScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const root = useStores();
  const { session, ui } = root;
  const settled = useSessionSettled(session);
  const store = useScreenStore(
    () => new CancelAutoRenewStore(membershipActionsApi(root.api), id, () => session.loadMemberships()),
    [root, id],
  );
  useDocumentTitle(t('membership.cancelAutoRenew.title'));
  let body;
  if (!settled)
    body = (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  else if (!session.isLoggedIn)
    body = (
      <div>
        <p className="notice notice--warning" role="alert">
          {t('membership.errors.autoRenewNotAuthenticated')}
        </p>
        <p>
          <button type="button" className="button" aria-haspopup="dialog" onClick={() => ui.openModal('login')}>
            {t('membership.form.logIn')}
          </button>
        </p>
      </div>
    );
  else if (store.state === 'done')
    body = (
      <div role="status">
        <p className="notice notice--info">{t('membership.cancelAutoRenew.done')}</p>
        <p>
          <Link to="/my/membership">{t('membership.redeem.see')}</Link>
        </p>
      </div>
    );
  else
    body = (
      <div>
        {store.state === 'error' && store.message ? (
          <p className="notice notice--warning" role="alert">
            {t(store.message)}
          </p>
        ) : (
          <p>{t('membership.cancelAutoRenew.confirmText')}</p>
        )}
        <div className="recovery-form">
          {store.state !== 'error' && (
            <button type="button" className="button" onClick={() => void store.confirm()} disabled={store.state === 'working'}>
              {t('membership.cancelAutoRenew.confirm')}
            </button>
          )}
          <Link to="/my/membership" className="back-link">
            {t('membership.cancelAutoRenew.keep')}
          </Link>
        </div>
      </div>
    );
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="membership">
        <h1 className="page-title">{t('membership.cancelAutoRenew.title')}</h1>
        {body}
      </ScreenContent>
    </div>
  );
});
