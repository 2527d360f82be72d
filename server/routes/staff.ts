import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { sellerOf } from '../http/seller';
import { notAuthenticated } from '../http/auth';
import { retryAfter } from '../http/retry-after';
import { staffRoutes } from '../../src/contract/staff';
import { parseMoney } from '../../src/domain/money';
import { setPaymentSchedule } from '../services/checkout/schedule';
import { STAFF_MARKER_COOKIE } from '../../src/domain/session';
import { endStaffSession, setPreview, STAFF_COOKIE, STAFF_SESSION_HOURS, staffAnswer, staffLogin, staffSessionOf } from '../services/staff';

const cookieOptions = (request: FastifyRequest) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: request.protocol === 'https',
});

/**
 * Support staff (issue 18): POST staff/login, GET staff/me, PUT and DELETE staff/preview, POST staff/logout. The staff
 * cookie is its own (httpOnly, SameSite=Strict), so no shopper session ever turns into staff and a shopper can never
 * start a preview: every preview route wants a live staff session of the seller.
 */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const requireStaff = async (request: FastifyRequest) => {
    const seller = await sellerOf(deps, request);
    const session = await staffSessionOf(deps, request.cookies, seller.id);
    if (!session) throw notAuthenticated();
    return session;
  };

  api.route({
    ...staffRoutes.login,
    onError: retryAfter,
    handler: async (request, reply: FastifyReply) => {
      const seller = await sellerOf(deps, request);
      const { token, answer } = await staffLogin(deps, seller, request.body.email, request.body.password, request.ip);
      reply.setCookie(STAFF_COOKIE, token, { ...cookieOptions(request), maxAge: STAFF_SESSION_HOURS * 3600 });
      reply.setCookie(STAFF_MARKER_COOKIE, '1', { ...cookieOptions(request), httpOnly: false, maxAge: STAFF_SESSION_HOURS * 3600 });
      return answer;
    },
  });

  api.route({
    ...staffRoutes.me,
    handler: async (request) => staffAnswer(await requireStaff(request)),
  });

  api.route({
    ...staffRoutes.preview,
    handler: async (request) => {
      const session = await requireStaff(request);
      const body = request.body;
      if (body.date && Number.isNaN(Date.parse(`${body.date}T00:00:00Z`)))
        throw new DomainError('validation_failed', 'Not a date.', 'staff_preview', { field: 'date' });
      return setPreview(deps, session, {
        role: body.role,
        date: body.date ?? null,
        level: body.role === 'member' || body.role === 'expired_member' ? (body.level ?? null) : null,
        blocks: body.blocks ?? null,
      });
    },
  });

  api.route({
    ...staffRoutes.endPreview,
    handler: async (request) => setPreview(deps, await requireStaff(request), null),
  });

  api.route({
    ...staffRoutes.paymentSchedule,
    handler: async (request) => {
      const session = await requireStaff(request);
      const parts = request.body.parts.map((p, i) => {
        const due = new Date(p.due_date);
        const amount = parseMoney(p.amount);
        if (Number.isNaN(due.getTime()) || amount === null || amount <= 0)
          throw new DomainError('validation_failed', 'Each part needs a due time and an amount above 0.', 'payment_schedule', {
            field: `parts.${i}`,
          });
        return { due_on: due, amount };
      });
      await setPaymentSchedule(deps, session.staff.seller_id, request.params.id, parts);
      return { cart_id: request.params.id, parts: parts.length };
    },
  });

  api.route({
    ...staffRoutes.logout,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const session = await staffSessionOf(deps, request.cookies, seller.id);
      if (session) await endStaffSession(deps, session);
      reply.clearCookie(STAFF_COOKIE, cookieOptions(request));
      reply.clearCookie(STAFF_MARKER_COOKIE, { ...cookieOptions(request), httpOnly: false });
      return { logged_out: true as const };
    },
  });
}
