import { lazy, Suspense, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaptchaHandle, CaptchaProviderId } from './captcha';

// The widget and its worker come only with a guest's checkout of a seller who asks for a captcha.
const AltchaWidget = lazy(() => import('./AltchaWidget'));

/** The invisible captcha of a guest's checkout (spec section 2): the notice, and the widget that solves it when paying. */
export function CaptchaField({
  provider,
  challenge,
  handleRef,
}: {
  provider: CaptchaProviderId;
  challenge: () => Promise<Record<string, unknown>>;
  handleRef: Ref<CaptchaHandle | null>;
}) {
  const { t } = useTranslation();
  return (
    <div className="checkout-form__captcha">
      <p className="checkout-form__captcha-notice">{t('checkout.captchaNotice')}</p>
      {provider === 'altcha' && (
        <Suspense fallback={null}>
          <AltchaWidget challenge={challenge} handleRef={handleRef} />
        </Suspense>
      )}
    </div>
  );
}
