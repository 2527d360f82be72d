import { sql } from 'kysely';
import type { Deps } from '../deps';
import type { Seller } from '../db/types';
import { DomainError } from './errors';
import { newSecret, sha256, isSecret } from './auth/tokens';
import { verifyPassword } from './password';
import { hit, refund } from './auth/rate-limit';
import type { Auth } from './auth/sessions';
import type { StaffPreview, StaffAnswer } from '../../src/contract/staff';

export const STAFF_COOKIE = 'storefront_staff';
export const STAFF_SESSION_HOURS = 12;
const DAY = 86_400_000;

export interface StaffSession {
  tokenHash: string;
  staff: { id: string; name: string; email: string; seller_id: string };
  preview: StaffPreview | null;
}

/** staff.json of a seller folder into the staff table: the file is the list (a member of staff left out is removed). */
export async function writeStaff(
  tx: Deps['db'],
  sellerId: string,
  staff: ReadonlyArray<{ email: string; name: string; password_hash: string }>,
): Promise<void> {
  const keep = staff.map((s) => s.email.toLowerCase());
  let remove = tx.deleteFrom('staff').where('seller_id', '=', sellerId);
  if (keep.length) remove = remove.where(sql<string>`lower(email)`, 'not in', keep);
  await remove.execute();
  for (const s of staff) {
    const updated = await tx
      .updateTable('staff')
      .set({ name: s.name, password_hash: s.password_hash, email: s.email })
      .where('seller_id', '=', sellerId)
      .where(sql<string>`lower(email)`, '=', s.email.toLowerCase())
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await tx.insertInto('staff').values({ seller_id: sellerId, email: s.email, name: s.name, password_hash: s.password_hash }).execute();
    }
  }
}

const invalid = () => new DomainError('invalid_credentials', 'Staff e-mail or password not recognised.', 'staff_login');

/** Checks a member of staff's password (limited per address like a shopper's login) and opens a staff session. */
export async function staffLogin(
  deps: Deps,
  seller: Seller,
  email: string,
  password: string,
  ip: string,
): Promise<{ token: string; answer: StaffAnswer }> {
  await hit(deps, 'login_ip', `staff:${seller.id}:${ip}`);
  await hit(deps, 'login_account_ip', `staff:${seller.id}:${email.toLowerCase()}:${ip}`);
  const staff = await deps.db
    .selectFrom('staff')
    .selectAll()
    .where('seller_id', '=', seller.id)
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  if (!staff || !(await verifyPassword(password, staff.password_hash))) throw invalid();
  await refund(deps, 'login_account_ip', `staff:${seller.id}:${email.toLowerCase()}:${ip}`);
  const token = newSecret();
  await deps.db
    .insertInto('staff_session')
    .values({
      token_hash: sha256(token),
      staff_id: staff.id,
      seller_id: seller.id,
      preview: null,
      expires_at: new Date(deps.now().getTime() + STAFF_SESSION_HOURS * 3_600_000),
    })
    .execute();
  return { token, answer: { staff: { name: staff.name, email: staff.email }, preview: null } };
}

/** The live staff session a request's staff cookie names (for the seller, when given); http/auth.ts reads it once per request. */
export async function staffSessionOf(
  deps: Deps,
  cookies: Record<string, string | undefined> | undefined,
  sellerId?: string,
): Promise<StaffSession | null> {
  const token = cookies?.[STAFF_COOKIE];
  if (!isSecret(token)) return null;
  let q = deps.db
    .selectFrom('staff_session as s')
    .innerJoin('staff', 'staff.id', 's.staff_id')
    .select(['s.token_hash', 's.preview', 'staff.id', 'staff.name', 'staff.email', 'staff.seller_id'])
    .where('s.token_hash', '=', sha256(token))
    .where('s.expires_at', '>', deps.now());
  if (sellerId) q = q.where('s.seller_id', '=', sellerId);
  const row = await q.executeTakeFirst();
  if (!row) return null;
  const preview =
    typeof row.preview === 'string' ? (JSON.parse(row.preview) as StaffPreview) : ((row.preview as StaffPreview | null) ?? null);
  return { tokenHash: row.token_hash, staff: { id: row.id, name: row.name, email: row.email, seller_id: row.seller_id }, preview };
}

export const staffAnswer = (session: StaffSession): StaffAnswer => ({
  staff: { name: session.staff.name, email: session.staff.email },
  preview: session.preview,
});

/** Starts, changes or (null) ends the session's preview. A member preview names one of the seller's levels. */
export async function setPreview(deps: Deps, session: StaffSession, preview: StaffPreview | null): Promise<StaffAnswer> {
  if (preview?.level) {
    const level = await deps.db
      .selectFrom('role')
      .select('id')
      .where('seller_id', '=', session.staff.seller_id)
      .where('id', '=', preview.level)
      .executeTakeFirst();
    if (!level) throw new DomainError('validation_failed', 'No such membership level.', 'staff_preview', { field: 'level' });
  }
  await deps.db
    .updateTable('staff_session')
    .set({ preview: preview ? JSON.stringify(preview) : null })
    .where('token_hash', '=', session.tokenHash)
    .execute();
  return staffAnswer({ ...session, preview });
}

export async function endStaffSession(deps: Deps, session: StaffSession): Promise<void> {
  await deps.db.deleteFrom('staff_session').where('token_hash', '=', session.tokenHash).execute();
}

/** The instant a preview date stands for: noon of that day in UTC, near enough for the terms placed around it. */
const previewInstant = (date: string | null | undefined, now: Date) => (date ? new Date(`${date}T12:00:00Z`) : now);

/**
 * Whom the server takes a previewing request for (issue 18): nobody (anonymous), or the seller's preview user of the
 * role, a real user without a password whose membership the preview sets: a member's term spans both today and the
 * preview's date, an expired member's ended 30 days before the earlier of them. Every rule then reads the visitor as
 * it reads a real one (members-only events and groups, member prices, the renewal notice, my/membership).
 */
export async function previewAuth(deps: Deps, sellerId: string, preview: StaffPreview): Promise<Auth | null> {
  if (preview.role === 'anonymous') return null;
  const email = `preview-${preview.role.replace('_', '-')}@staff.invalid`;
  const now = deps.now();
  const at = previewInstant(preview.date, now);
  let user = await deps.db
    .selectFrom('app_user')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user) {
    const identity = await deps.db
      .insertInto('identity')
      .values({
        seller_id: sellerId,
        first_name: 'Preview',
        last_name: preview.role === 'logged_in' ? 'Visitor' : preview.role === 'member' ? 'Member' : 'Former Member',
        email,
        additional_info: JSON.stringify({}),
        meta: JSON.stringify({ staff_preview: true }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    user = await deps.db
      .insertInto('app_user')
      .values({ seller_id: sellerId, identity_id: identity.id, email, password_hash: null, preview_role: preview.role })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    // Another request made it at the same moment: take that one.
    user ??= await deps.db
      .selectFrom('app_user')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
  }
  if (preview.role !== 'logged_in') await placePreviewMembership(deps, sellerId, user.identity_id, preview, now, at);
  const identity = await deps.db.selectFrom('identity').selectAll().where('id', '=', user.identity_id).executeTakeFirstOrThrow();
  return { user, identity };
}

async function placePreviewMembership(deps: Deps, sellerId: string, identityId: string, preview: StaffPreview, now: Date, at: Date) {
  let levels = deps.db.selectFrom('role').selectAll().where('seller_id', '=', sellerId);
  if (preview.level) levels = levels.where('id', '=', preview.level);
  const role = await levels.orderBy('_rank').orderBy('name').executeTakeFirst();
  if (!role) return;
  // Whole UTC days, so the term is the same all day and the row is written when the preview changes, not per request.
  const earliest = Math.floor(Math.min(now.getTime(), at.getTime()) / DAY) * DAY;
  const latest = Math.floor(Math.max(now.getTime(), at.getTime()) / DAY) * DAY;
  const term =
    preview.role === 'member'
      ? { valid_from: new Date(earliest - 30 * DAY), valid_to: new Date(latest + 335 * DAY) }
      : { valid_from: new Date(earliest - 395 * DAY), valid_to: new Date(earliest - 30 * DAY) };
  const type = role.ticket_type_id
    ? await deps.db
        .selectFrom('ticket_type as t')
        .innerJoin('ticket_group as g', 'g.id', 't.ticket_group_id')
        .select(['g.id as group_id', 'g.event_template_id'])
        .where('t.id', '=', role.ticket_type_id)
        .executeTakeFirst()
    : undefined;
  const values = {
    role_id: role.id,
    membership_program_id: role.membership_program_id,
    ticket_group_id: type?.group_id ?? null,
    event_template_id: type?.event_template_id ?? null,
    ...term,
    member_event_purchase_limit: role.member_event_purchase_limit,
  };
  const existing = await deps.db
    .selectFrom('membership')
    .select(['id', 'role_id', 'valid_from', 'valid_to'])
    .where('identity_id', '=', identityId)
    .executeTakeFirst();
  const time = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());
  if (existing) {
    const same =
      existing.role_id === values.role_id &&
      time(existing.valid_from) === values.valid_from.getTime() &&
      time(existing.valid_to) === values.valid_to.getTime();
    if (!same) await deps.db.updateTable('membership').set(values).where('id', '=', existing.id).execute();
  } else
    await deps.db
      .insertInto('membership')
      .values({ seller_id: sellerId, identity_id: identityId, scan_code: `PREVIEW-${identityId}`, zip_code: null, ...values })
      .execute();
}
