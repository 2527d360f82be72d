import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { authConfigOf, externalLogoutTarget, parseMethod } from '../domain/auth-config';

/** The logged-in member's menu (greeting, my account or membership details, log out): a chunk of its own, since a
 *  guest on the first page never draws it (issue 19, a lighter first page). */
export const LoggedInMenu = observer(function LoggedInMenu() {
  const { t } = useTranslation();
  const { session, config } = useStores();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const name = session.greetingName;
  const showAccount = (config.storefront.web as { show_my_account_link?: boolean } | undefined)?.show_my_account_link !== false;

  useEffect(() => {
    if (!open) return;
    // Closes when focus or a click leaves the menu, like a native disclosure menu.
    const away = (event: Event) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('focusin', away);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('focusin', away);
    };
  }, [open]);

  const handleLogout = async () => {
    setOpen(false);
    const auth = authConfigOf(config.storefront);
    const external = externalLogoutTarget(parseMethod(auth.method ?? 'password') ?? 'password', auth);
    const endSessionUrl = await session.logout();
    // A single sign-on session ends at the identity provider too, which sends the visitor back home.
    const leaveTo = endSessionUrl ?? (external && 'url' in external ? external.url : null);
    if (leaveTo) {
      window.location.assign(leaveTo);
      return;
    }
    navigate('/');
  };

  return (
    <div
      className="member-menu"
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
          ref.current?.querySelector('button')?.focus();
        }
      }}
    >
      <button
        type="button"
        className="button button--secondary member-menu__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        {name ? t('header.greeting', { name }) : t('header.greetingNoName')}
      </button>
      <ul id={menuId} className="member-menu__list" hidden={!open}>
        {showAccount && (
          <li>
            <Link to={session.hasMembership ? '/my/membership' : '/my'} onClick={() => setOpen(false)}>
              {session.hasMembership ? t('header.membershipDetails') : t('header.myAccount')}
            </Link>
          </li>
        )}
        <li>
          <button type="button" onClick={() => void handleLogout()}>
            {t('header.logout')}
          </button>
        </li>
      </ul>
    </div>
  );
});
