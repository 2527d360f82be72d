import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { CartTransferStore } from '../../stores/CartTransferStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { transferNextPath, transferTokenOf } from '../../domain/cart-transfer';
import { completionPath } from '../checkout/paths';

/** The transfer link's token: read from the fragment once, then taken out of the address (history, bookmarks). */
function useTransferToken(): string | null {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => transferTokenOf(hash));
  useEffect(() => {
    if (hash) void navigate({ hash: '' }, { replace: true });
  }, [hash, navigate]);
  return token;
}

/**
 * /transfer-cart/{cartId} (spec section 2): a cart handed over from another browser. With the link's token the cart
 * becomes this visitor's, then the page goes on to the link's `next` path or /checkout; a member's cart is not handed
 * over ('This cart belongs to another member'); a checked-out cart goes to its confirmation.
 */
// A page a visitor passes through on the way to the checkout: no layout of its own, so no content blocks.
export const TransferCartScreen = observer(function TransferCartScreen() {
  const { t } = useTranslation();
  const { cartId = '' } = useParams();
  const [search] = useSearchParams();
  const { api, cart, session } = useStores();
  const token = useTransferToken();
  const next = transferNextPath(search.get('next'));
  const identityId = session.identity?.id ?? null;
  const store = useScreenStore(() => new CartTransferStore({ api, cart }), [api, cart]);
  useDocumentTitle(t('transferCart.title'));

  useEffect(() => {
    void store.open({ cartId, token, next, identityId });
  }, [store, cartId, token, next, identityId]);

  const outcome = store.outcome;
  if (outcome.kind === 'go') return <Navigate to={outcome.to} replace />;
  if (outcome.kind === 'complete') return <Navigate to={completionPath(outcome.orderIds)} replace />;
  const message =
    outcome.kind === 'not_found'
      ? 'transferCart.notFound'
      : outcome.kind === 'denied'
        ? 'transferCart.accessDenied'
        : outcome.kind === 'another_member'
          ? 'transferCart.anotherMember'
          : outcome.kind === 'error'
            ? 'errors.unexpected'
            : null;
  return (
    <div className="container page transfer-page">
      <h1 className="page-title">{t('transferCart.title')}</h1>
      {message ? (
        <>
          <p className="notice--error" role="alert">
            {t(message)}
          </p>
          <p>
            <Link to="/events">{t('transferCart.home')}</Link>
          </p>
        </>
      ) : (
        <p className="page-status" role="status">
          {t('transferCart.loading')}
        </p>
      )}
    </div>
  );
});
