import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { googleCallbackQuerySchema, googleStartQuerySchema, redirectResponseSchema } from '@pharmapoint/domain/auth';
import type { App, AppDeps } from '../../platform/module.ts';
import { setSessionCookie } from '../../platform/auth-plugin.ts';
import { newSecret } from '../../platform/tokens.ts';
import { routeSteps } from '../../platform/transaction.ts';
import { openSession } from './auth.flows.ts';
import { googleUser } from './auth.service.ts';

const STATE_COOKIE = 'pp_oidc';
const STATE_MINUTES = 10;

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  issuer: string;
}

/** Why a Google sign-in ended on the login page: the ?error= values the login screen turns into messages. */
type GoogleOutcome = 'account_not_found' | 'access_denied' | 'other_method' | 'google_failed';

class GoogleSignInError extends Error {
  constructor(readonly outcome: GoogleOutcome) {
    super(outcome);
  }
}

/** A path inside the app to return to after sign-in; anything else goes to the dashboard. */
function safeReturnPath(value: string | undefined): string {
  return value && /^\/app(\/|$)/.test(value) && !value.startsWith('//') ? value : '/app/dashboard';
}

/**
 * Google sign-in through OpenID Connect (authorization code flow with state and nonce), only when
 * GOOGLE_CLIENT_ID is set. Google accounts sign in to existing PharmaPoint users: one already linked to that
 * Google account, or an invited user who has not set a password yet (linked now). An account with a password
 * answers 'An account already exists with this email using a different sign-in method.'; no account answers
 * 'Account not found. Please register first.' (seed 000 section 8).
 */
export async function registerGoogle(app: App, deps: AppDeps): Promise<void> {
  const { config } = deps;
  const redirect = { 302: redirectResponseSchema };
  const r = app.withTypeProvider<ZodTypeProvider>();
  let discovery: Promise<Discovery> | null = null;
  let jwks: ReturnType<typeof createRemoteJWKSet> | null = null;
  const redirectUri = `${config.publicUrl}/api/auth/google/callback`;

  function discover(): Promise<Discovery> {
    discovery ??= fetch(`${config.googleIssuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        return (await response.json()) as Discovery;
      })
      .catch((error: unknown) => {
        discovery = null;
        throw error;
      });
    return discovery;
  }

  r.get(
    '/api/auth/google/start',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Start Google sign-in (redirects to Google)', querystring: googleStartQuerySchema, response: redirect },
    },
    async (request, reply) => {
      if (!config.googleClientId) return reply.redirect('/login?error=google_failed');
      let endpoints: Discovery;
      try {
        endpoints = await discover();
      } catch (error) {
        request.log.warn({ err: error }, 'Google discovery failed');
        return reply.redirect('/login?error=google_failed');
      }
      const state = newSecret(16);
      const nonce = newSecret(16);
      reply.setCookie(STATE_COOKIE, JSON.stringify({ state, nonce, from: safeReturnPath(request.query.from) }), {
        path: '/api/auth/google',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
        maxAge: STATE_MINUTES * 60,
      });
      const url = new URL(endpoints.authorization_endpoint);
      url.search = new URLSearchParams({
        client_id: config.googleClientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
        nonce,
        prompt: 'select_account',
      }).toString();
      return reply.redirect(url.toString());
    },
  );

  r.get(
    '/api/auth/google/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Google sign-in callback',
        querystring: googleCallbackQuerySchema,
        response: redirect,
      },
    },
    async (request, reply) => {
      reply.clearCookie(STATE_COOKIE, { path: '/api/auth/google' });
      try {
        if (!config.googleClientId) throw new GoogleSignInError('google_failed');
        if (request.query.error) throw new GoogleSignInError(request.query.error === 'access_denied' ? 'access_denied' : 'google_failed');
        let saved: { state: string; nonce: string; from: string };
        try {
          saved = JSON.parse(request.cookies[STATE_COOKIE] ?? '') as typeof saved;
        } catch {
          throw new GoogleSignInError('google_failed');
        }
        if (!request.query.code || !request.query.state || request.query.state !== saved.state) throw new GoogleSignInError('google_failed');
        const claims = await exchange(request.query.code, saved.nonce);
        const found = await app.inPlatform(request, reply, (q, ctx) => googleUser(q, claims, ctx.now));
        if ('refusal' in found) throw new GoogleSignInError(found.refusal);
        const userId = found.userId;
        const session = await openSession(routeSteps(app, request, reply), deps, userId, { ip: request.ip, userAgent: request.headers['user-agent'] });
        setSessionCookie(reply, config, session.token, session.expires);
        // Someone who works in no pharmacy yet, or in several and has not chosen, chooses first (decision 0015).
        if (!session.auth.pharmacyId && !session.auth.isPlatformOperator) return reply.redirect('/choose-pharmacy');
        return reply.redirect(safeReturnPath(saved.from));
      } catch (error) {
        const outcome = error instanceof GoogleSignInError ? error.outcome : 'google_failed';
        if (!(error instanceof GoogleSignInError)) request.log.warn({ err: error }, 'Google sign-in failed');
        return reply.redirect(`/login?error=${outcome}`);
      }
    },
  );

  async function exchange(code: string, nonce: string): Promise<JWTPayload & { email?: string; email_verified?: boolean; name?: string }> {
    const endpoints = await discover();
    const response = await fetch(endpoints.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code,
        client_id: config.googleClientId!,
        client_secret: config.googleClientSecret ?? '',
        redirect_uri: redirectUri,
        grant_type: 'authorization_code',
      }),
    });
    if (!response.ok) throw new GoogleSignInError('google_failed');
    const body = (await response.json()) as { id_token?: string };
    if (!body.id_token) throw new GoogleSignInError('google_failed');
    jwks ??= createRemoteJWKSet(new URL(endpoints.jwks_uri));
    const { payload } = await jwtVerify(body.id_token, jwks, { issuer: endpoints.issuer, audience: config.googleClientId! });
    if (payload.nonce !== nonce) throw new GoogleSignInError('google_failed');
    return payload as JWTPayload & { email?: string; email_verified?: boolean; name?: string };
  }
}
