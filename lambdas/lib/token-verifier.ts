import { JwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { Fetcher } from 'aws-jwt-verify/https';
import { UnauthorizedError } from './errors';
import { optionalEnv, requireEnv } from './env';
import type { TokenVerifier } from '../ports/cognito';

interface TokenVerifierConfig {
  readonly issuer: string;
  readonly jwksUri: string;
  /** The HTTP API authorizer's audience: the app client id(s). */
  readonly audience: readonly string[];
}

/** Node's fetch speaks http and https; the library's own fetcher is https-only. */
const fetchFetcher: Fetcher = {
  async fetch(uri) {
    const res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`JWKS fetch ${uri} answered ${res.status}`);
    return res.arrayBuffer();
  },
};

export const createTokenVerifier = (config: TokenVerifierConfig): TokenVerifier => {
  const verifier = JwtVerifier.create(
    {
      issuer: config.issuer,
      jwksUri: config.jwksUri,
      // Checked below against aud or client_id, as the HTTP API authorizer does.
      audience: null,
      customJwtCheck: ({ payload }) => {
        const aud = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
        const clientId = typeof payload.client_id === 'string' ? [payload.client_id] : [];
        if (![...aud, ...clientId].some((a) => config.audience.includes(a))) {
          throw new Error('Token audience / client is not allowed');
        }
      },
    },
    { jwksCache: new SimpleJwksCache({ fetcher: fetchFetcher }) },
  );
  return {
    async verify(token) {
      try {
        return await verifier.verify(token);
      } catch {
        // Why a token failed stays on the server; the client learns only that it is not valid.
        throw new UnauthorizedError();
      }
    },
  };
};

/** Reads JWT_ISSUER, JWKS_URI and USER_POOL_CLIENT_ID (set by CDK and by the local stack). */
export const tokenVerifierFromEnv = (env: NodeJS.ProcessEnv = process.env): TokenVerifier => {
  const issuer = requireEnv('JWT_ISSUER', env);
  return createTokenVerifier({
    issuer,
    jwksUri: optionalEnv('JWKS_URI', env) ?? `${issuer}/.well-known/jwks.json`,
    audience: [requireEnv('USER_POOL_CLIENT_ID', env)],
  });
};
