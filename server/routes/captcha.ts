import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { captchaRoutes } from '../../src/contract/captcha';
import { captchaChallenge } from '../services/captcha';
import { table } from '../../src/contract/tables';
import { privateNoStore } from './cart';

/** GET captcha/challenge (issue 14): a fresh challenge of the seller's captcha, never cached. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...captchaRoutes.challenge,
    onSend: privateNoStore,
    handler: async (request) => {
      const { provider, challenge } = await captchaChallenge(deps, await sellerOf(deps, request));
      return { captcha_challenge: table([{ provider: provider as 'altcha', challenge }]) };
    },
  });
}
