import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A small OpenID Connect provider for the single sign-on tests (issue 18): the real `oidc-provider` on 127.0.0.1 and
 * a port of its own, which the server reaches exactly as it would reach a real identity provider (discovery, the
 * authorisation endpoint, the token endpoint, its keys, userinfo).
 *
 * It has a confidential client (`storefront`, secret CLIENT_SECRET) and a public one (`storefront-public`, PKCE only),
 * both registered for `{publicUrl}/api/sso/callback`. Its login page (GET /interaction/{uid}) asks for an e-mail; an
 * account with that e-mail logs in (POST .../login), "Cancel" (POST .../abort) answers access_denied. Consent is given
 * at once for these first-party clients. Its dev interactions are off: the pages here are the provider's own.
 * As a code-flow provider should, it puts the e-mail claims in userinfo, not in the ID token.
 */
export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestIdp {
  issuer: string;
  accounts: Map<string, TestAccount>;
  close(): Promise<void>;
}

export const CLIENT_ID = 'storefront';
export const PUBLIC_CLIENT_ID = 'storefront-public';
export const CLIENT_SECRET = 'a-client-secret-only-the-server-knows';

const page = (uid: string, problem?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Sign in to the test identity provider</h1>
${problem ? `<p role="alert">${problem}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="off">
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

export async function startTestIdp(publicUrls: string | string[], accounts: TestAccount[] = []): Promise<TestIdp> {
  const redirectUris = [publicUrls].flat().map((u) => `${u.replace(/\/$/, '')}/api/sso/callback`);
  // Where the provider's logout may send the visitor back: the storefront's home (server/services/auth/oidc.ts).
  const postLogoutUris = [publicUrls].flat().map((u) => `${u.replace(/\/$/, '')}/`);
  const bySub = new Map(accounts.map((a) => [a.sub, a]));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutUris,
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: PUBLIC_CLIENT_ID,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutUris,
        token_endpoint_auth_method: 'none',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['test-idp-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = bySub.get(sub);
      return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined;
    },
    // First-party clients: consent is given at once for what they ask.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope(ctx.oidc.params?.scope ? String(ctx.oidc.params.scope) : 'openid');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    void (async () => {
      try {
        const { uid } = await provider.interactionDetails(req, res);
        const send = (status: number, html: string) => {
          res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
          res.end(html);
        };
        if (req.method === 'GET') return send(200, page(uid));
        if (m[2] === 'abort')
          return await provider.interactionFinished(
            req,
            res,
            { error: 'access_denied', error_description: 'cancelled' },
            { mergeWithLastSubmission: false },
          );
        const email = (await formOf(req)).get('email')?.trim().toLowerCase() ?? '';
        const account = [...bySub.values()].find((a) => a.email.toLowerCase() === email);
        if (!account) return send(400, page(uid, 'No such account.'));
        await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    })();
  });
  return {
    issuer,
    accounts: bySub,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Adds an account after start (a test's own user). */
export function addAccount(idp: TestIdp, account: TestAccount) {
  idp.accounts.set(account.sub, account);
}
