import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { ValidationError } from '../../lib/errors';
import { optionalEnv, requireEnv } from '../../lib/env';

export interface Tokens {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken?: string;
}

/** Cognito as the identity store: the port the user endpoint uses. */
export interface IdentityProvider {
  signIn(email: string, password: string): Promise<Tokens>;
}

export const WRONG_CREDENTIALS = 'Incorrect email or password.';

/**
 * cognito-local answers a wrong password with InvalidPasswordException where AWS answers
 * NotAuthorizedException; an unknown email is UserNotFoundException (or NotAuthorized when
 * the pool hides user existence). All mean the same to a person signing in.
 */
const CREDENTIAL_ERRORS = new Set(['NotAuthorizedException', 'InvalidPasswordException', 'UserNotFoundException']);

export const createCognitoClient = (env: NodeJS.ProcessEnv = process.env) => {
  const endpoint = optionalEnv('COGNITO_ENDPOINT', env);
  return new CognitoIdentityProviderClient({
    ...(endpoint ? { endpoint } : {}),
    region: optionalEnv('AWS_REGION', env) ?? 'us-east-1',
  });
};

export const cognitoIdentityProvider = (
  client: CognitoIdentityProviderClient,
  clientId: string,
): IdentityProvider => ({
  async signIn(email, password) {
    try {
      const res = await client.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
      const r = res.AuthenticationResult;
      if (!r?.AccessToken || !r.IdToken) throw new ValidationError(WRONG_CREDENTIALS);
      return { accessToken: r.AccessToken, idToken: r.IdToken, refreshToken: r.RefreshToken };
    } catch (err) {
      if (CREDENTIAL_ERRORS.has((err as { name?: string }).name ?? '')) throw new ValidationError(WRONG_CREDENTIALS);
      throw err;
    }
  },
});

export const identityProviderFromEnv = (env: NodeJS.ProcessEnv = process.env): IdentityProvider =>
  cognitoIdentityProvider(createCognitoClient(env), requireEnv('USER_POOL_CLIENT_ID', env));
