import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

const SIGNATURE_KEY = (orderId: string) => `manage-signature:${orderId}`;

/**
 * The manage link's signature: read from the e-mail's `sig` parameter once, then kept for this tab only
 * (sessionStorage) and taken out of the address, so it does not stay in the history or travel on in a Referer. The
 * reschedule and confirm screens of the order read it from there.
 */
export function useManageSignature(orderId: string): string | null {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const fromLink = search.get('sig');
  const [signature] = useState(() => {
    if (fromLink) sessionStorage.setItem(SIGNATURE_KEY(orderId), fromLink);
    return fromLink ?? sessionStorage.getItem(SIGNATURE_KEY(orderId));
  });
  useEffect(() => {
    if (fromLink) void navigate({ search: '' }, { replace: true });
  }, [fromLink, navigate]);
  return signature;
}
