import { useEffect, useId, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { StaffStore } from '../../stores/StaffStore';
import type { PreviewRole } from '../../contract/staff';
import '../../styles/staff.css';

const ROLES: PreviewRole[] = ['anonymous', 'logged_in', 'member', 'expired_member'];

/**
 * The preview bar (issue 18), on every page for a logged-in member of staff only (its code loads only for them): whom
 * to view the storefront as, on which day, with which content blocks. Showing a preview reloads the page, which then
 * answers as that visitor's would, and nothing can be bought.
 */
export default observer(function StaffBar() {
  const { t } = useTranslation();
  const root = useStores();
  const staff = useScreenStore(() => new StaffStore({ api: root.api, reload: () => window.location.reload() }), [root.api]);
  const answer = staff.answer ?? root.staff;
  const current = answer?.preview ?? null;
  const [role, setRole] = useState<PreviewRole | 'self'>(current?.role ?? 'self');
  const [date, setDate] = useState(current?.date ?? '');
  const [level, setLevel] = useState(current?.level ?? '');
  const memberRole = role === 'member' || role === 'expired_member';
  useEffect(() => {
    if (memberRole) void staff.loadLevels();
  }, [memberRole, staff]);
  const [blocks, setBlocks] = useState<string[]>(current?.blocks ?? root.staffBlockNames);
  const id = useId();
  if (!answer) return null;
  const busy = staff.state === 'busy';
  const roleName = (r: PreviewRole | 'self') => t(`staff.roles.${r}`);

  return (
    <aside className="staff-bar" aria-label={t('staff.barLabel')}>
      <div className="container staff-bar__inner">
        <p className="staff-bar__who">
          <strong>{t('staff.barLabel')}</strong> · {t('staff.signedInAs', { name: answer.staff.name })}
        </p>
        {current && (
          <p className="staff-bar__active" role="status">
            {t('staff.active', {
              role: roleName(current.role),
              date: current.date ? t('staff.activeDate', { date: current.date }) : '',
            })}
          </p>
        )}
        <form
          className="staff-bar__form"
          onSubmit={(e) => {
            e.preventDefault();
            const allBlocks = blocks.length === root.staffBlockNames.length;
            void staff.apply(
              role === 'self'
                ? null
                : { role, date: date || null, level: memberRole && level ? level : null, blocks: allBlocks ? null : blocks },
            );
          }}
        >
          <label className="staff-bar__field">
            <span>{t('staff.viewAs')}</span>
            <select value={role} onChange={(e) => setRole(e.target.value as PreviewRole | 'self')} disabled={busy}>
              <option value="self">{roleName('self')}</option>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
          </label>
          {memberRole && (
            <label className="staff-bar__field">
              <span>{t('staff.level')}</span>
              <select value={level} onChange={(e) => setLevel(e.target.value)} disabled={busy}>
                <option value="">{t('staff.firstLevel')}</option>
                {staff.levels.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="staff-bar__field">
            <span>{t('staff.date')}</span>
            <input type="date" value={date} onChange={(e) => setDate(e.target.value)} disabled={busy || role === 'self'} />
          </label>
          {root.staffBlockNames.length > 0 && (
            <fieldset className="staff-bar__blocks" disabled={busy || role === 'self'} aria-describedby={`${id}-blocks`}>
              <legend id={`${id}-blocks`}>{t('staff.blocks')}</legend>
              {root.staffBlockNames.map((name) => (
                <label key={name} className="staff-bar__block">
                  <input
                    type="checkbox"
                    checked={blocks.includes(name)}
                    onChange={(e) => setBlocks(e.target.checked ? [...blocks, name] : blocks.filter((b) => b !== name))}
                  />
                  {name}
                </label>
              ))}
            </fieldset>
          )}
          <div className="staff-bar__actions">
            <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
              {t('staff.apply')}
            </button>
            {current && (
              <button type="button" className="button button--secondary" disabled={busy} onClick={() => void staff.apply(null)}>
                {t('staff.end')}
              </button>
            )}
            <button type="button" className="link-button" disabled={busy} onClick={() => void staff.logout()}>
              {t('staff.logout')}
            </button>
          </div>
        </form>
        {staff.error && (
          <p className="staff-bar__error" role="alert">
            {t(staff.error)}
          </p>
        )}
      </div>
    </aside>
  );
});
