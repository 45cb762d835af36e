import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface FakeIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/**
 * A local OpenID Connect provider speaking the real protocol (discovery, authorization code exchange at the
 * token endpoint, RS256-signed id_token, JWKS), standing in for Google in tests.
 */
export async function startOidcProvider(clientId: string, clientSecret: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { identity: FakeIdentity; nonce: string; redirectUri: string }>();
  let issuer = '';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(body);
          const grant = codes.get(form.get('code') ?? '');
          if (
            !grant ||
            form.get('grant_type') !== 'authorization_code' ||
            form.get('client_id') !== clientId ||
            form.get('client_secret') !== clientSecret ||
            form.get('redirect_uri') !== grant.redirectUri
          ) {
            return json(400, { error: 'invalid_grant' });
          }
          codes.delete(form.get('code')!);
          const idToken = await new SignJWT({ ...grant.identity, nonce: grant.nonce })
            .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
            .setIssuer(issuer)
            .setAudience(clientId)
            .setSubject(grant.identity.sub)
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(privateKey);
          json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    get issuer() {
      return issuer;
    },
    /** What the provider does when the person consents at the authorization URL: issue a code for them. */
    consent(authorizationUrl: string, identity: FakeIdentity): { code: string; state: string } {
      const url = new URL(authorizationUrl);
      if (url.searchParams.get('client_id') !== clientId) throw new Error('wrong client_id');
      const code = `code-${Math.random().toString(36).slice(2)}`;
      codes.set(code, { identity, nonce: url.searchParams.get('nonce') ?? '', redirectUri: url.searchParams.get('redirect_uri') ?? '' });
      return { code, state: url.searchParams.get('state') ?? '' };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
