import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { registerConfigRoutes } from './config';
import { registerEventRoutes } from './events';
import { registerSessionRoutes } from './sessions';
import { registerSeatMapRoutes } from './seat-map';
import { registerCalendarRoutes } from './calendar';
import { registerEventTemplateRoutes } from './event-template';
import { registerTicketGroupRoutes } from './ticket-group';
import { registerMediaRoutes } from './media';
import { registerFormRoutes } from './forms';
import registerCartRoutes from './cart';
import registerCheckoutRoutes from './checkout';
import registerTicketOrderRoutes from './ticket-order';
import registerUserRoutes from './user';
import registerAuthRoutes from './auth';
import registerPasswordResetRoutes from './password-reset';
import registerMyRoutes from './my';
import registerMembershipRoutes from './membership';
import registerAddressRoutes from './address';
import registerLedgerRoutes from './ledger';
import registerStaffRoutes from './staff';
import registerWalletRoutes from './wallet';
import { inPreview } from '../http/auth';
import { DomainError } from '../http/errors';

/** Registers every resource's routes; called once for /api and once for /cached_api. */
export async function registerApiRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  // Preview is read-only (issue 18): a member of staff looking as a visitor changes nothing, buys nothing, books nothing.
  app.addHook('preHandler', async (request) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method) || /^\/(cached_)?api\/staff\//.test(request.url)) return;
    if (await inPreview(deps, request)) throw new DomainError('preview_read_only', 'Preview is read-only.');
  });
  registerConfigRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerSeatMapRoutes(app, deps);
  registerCalendarRoutes(app, deps);
  registerEventTemplateRoutes(app, deps);
  registerTicketGroupRoutes(app, deps);
  registerMediaRoutes(app, deps);
  registerFormRoutes(app, deps);
  await registerCartRoutes(app, deps);
  await registerCheckoutRoutes(app, deps);
  await registerTicketOrderRoutes(app, deps);
  await registerUserRoutes(app, deps);
  await registerAuthRoutes(app, deps);
  await registerPasswordResetRoutes(app, deps);
  await registerMyRoutes(app, deps);
  await registerMembershipRoutes(app, deps);
  await registerAddressRoutes(app, deps);
  await registerLedgerRoutes(app, deps);
  await registerStaffRoutes(app, deps);
  await registerWalletRoutes(app, deps);
}
