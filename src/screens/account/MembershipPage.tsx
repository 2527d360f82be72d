import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useAccountStore } from './account-context';
import { RequestStatus } from './RequestStatus';
import { membershipQrUrl, membershipViews, type AutoRenewStatus, type MembershipView } from './views';

const AUTO_RENEW_KEY: Record<AutoRenewStatus, string> = {
  enrolled: 'account.membership.autoRenewEnrolled',
  cancelled: 'account.membership.autoRenewCancelled',
  not_enrolled: 'account.membership.autoRenewNotEnrolled',
};

/** /my/membership: level, program, term, member id (scan code) and auto-renew state of each membership. */
export const MembershipPage = observer(function MembershipPage() {
  const { t } = useTranslation();
  const { config } = useStores();
  const account = useAccountStore();
  useDocumentTitle(t('account.membership.title'));
  useEffect(() => {
    void account.loadMembership();
  }, [account]);

  const memberships = membershipViews(account.membership.data, new Date(), config.timezone);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="page-title">
        {t('account.membership.title')}
      </h1>
      <RequestStatus request={account.membership} />
      {account.membership.state === 'done' && memberships.length === 0 && <p>{t('account.membership.none')}</p>}
      {memberships.map((m) => (
        <MembershipCard key={m.id} membership={m} />
      ))}
    </section>
  );
});

function MembershipCard({ membership: m }: { membership: MembershipView }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const headingId = `membership-${m.id}`;
  return (
    <article className="account-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="account-card__title">
        {m.level || t('account.membership.title')}
        <span className="account-card__badge">{m.active ? t('account.membership.current') : t('account.membership.past')}</span>
      </h2>
      <dl className="account-details">
        <div>
          <dt>{t('account.membership.level')}</dt>
          <dd>{m.level}</dd>
        </div>
        <div>
          <dt>{t('account.membership.program')}</dt>
          <dd>{m.program}</dd>
        </div>
        <div>
          <dt>{t('account.membership.validFrom')}</dt>
          <dd>{m.validFrom}</dd>
        </div>
        <div>
          <dt>{t('account.membership.validTo')}</dt>
          <dd>{m.validTo}</dd>
        </div>
        {m.memberNames.length > 0 && (
          <div>
            <dt>{t('account.membership.members')}</dt>
            <dd>{m.memberNames.join(', ')}</dd>
          </div>
        )}
        <div>
          <dt>{t('account.membership.scanCode')}</dt>
          <dd className="account-details__code">{m.scanCode}</dd>
        </div>
        <div>
          <dt>{t('account.membership.autoRenew')}</dt>
          <dd>
            {t(AUTO_RENEW_KEY[m.autoRenew])}
            {m.autoRenew === 'enrolled' && (
              <>
                {' '}
                · {/* A membership that came without an order (a catalogue member) is named by its own id. */}
                <Link to={`/manage/${m.orderId ?? m.id}/cancel-auto-renew`}>{t('account.membership.cancelAutoRenew')}</Link>
              </>
            )}
          </dd>
        </div>
      </dl>
      {m.active && (
        <img
          className="account-card__qr"
          src={membershipQrUrl(config.deployment.apiBaseUrl, m.id, config.seller.id)}
          alt={t('account.membership.qrAlt', { code: m.scanCode })}
          width={160}
          height={160}
        />
      )}
    </article>
  );
}
