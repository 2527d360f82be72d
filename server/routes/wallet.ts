import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { PKPASS_TYPE, walletRoutes } from '../../src/contract/wallet';
import { MANAGE_SIGNATURE_HEADER } from '../../src/contract/manage-link';
import { ORDER_TOKEN_HEADER } from '../../src/contract/urls';
import { table } from '../../src/contract/tables';
import { appleWalletPass, googleWalletLink, walletPrecheck, type PassProof } from '../services/wallet';
import { callerOf, privateNoStore } from './cart';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The proofs a request carries: the order's access token and the manage link's signature in headers, the pass link's in `sig`. */
const proofOf = (request: FastifyRequest<{ Querystring: { sig?: string } }>): PassProof => ({
  accessToken: header(request, ORDER_TOKEN_HEADER),
  manageSignature: header(request, MANAGE_SIGNATURE_HEADER),
  passSignature: request.query.sig,
});

/** Wallet passes (issue 17): precheck, the Apple Wallet pass and the Google Wallet save link of a ticket. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.route({
    ...walletRoutes.precheck,
    onSend: privateNoStore,
    handler: async (request) => ({
      wallet_precheck: table(await walletPrecheck(deps, request.params.id, await callerOf(deps, request), proofOf(request))),
    }),
  });

  api.route({
    ...walletRoutes.pkpass,
    onSend: privateNoStore,
    handler: async (request, reply) => {
      const pass = await appleWalletPass(deps, request.params.id, await callerOf(deps, request), proofOf(request));
      return reply.type(PKPASS_TYPE).header('Content-Disposition', `attachment; filename="${pass.filename}"`).send(pass.data);
    },
  });

  api.route({
    ...walletRoutes.gwpass,
    onSend: privateNoStore,
    handler: async (request, reply) =>
      reply.redirect(await googleWalletLink(deps, request.params.id, await callerOf(deps, request), proofOf(request)), 302),
  });
}
