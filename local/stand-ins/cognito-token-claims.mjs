/**
 * Preloaded into cognito-local (node --import), for two gaps of cognito-local 5.3.
 *
 * 1. It runs the pre-token-generation
 * trigger as version 1, whose claims reach the ID token only, where AWS's version 2 (the user
 * pool's setting in cdk/lib/constructs/auth.ts) adds them to the access token the API reads.
 * This copies the claims named in COGNITO_LOCAL_ACCESS_CLAIMS (comma-separated) from the ID token
 * the trigger shaped into the access token, re-signed with cognito-local's own key.
 *
 * 2. Amplify 6 renews a session with GetTokensFromRefreshToken, which cognito-local does not
 *    know (a 500): it is answered as InitiateAuth REFRESH_TOKEN_AUTH, the same refresh.
 */
import { createRequire } from 'node:module';

// cognito-local is CommonJS: its modules are patched in the require cache its server then uses.
const local = createRequire(createRequire(import.meta.url).resolve('cognito-local/package.json'));
const jwt = local('jsonwebtoken');
const key = local('./lib/keys/cognitoLocal.private.json');
const { JwtTokenGenerator } = local('./lib/services/tokenGenerator.js');
const names = (process.env.COGNITO_LOCAL_ACCESS_CLAIMS || '').split(',').filter(Boolean);

const generate = JwtTokenGenerator.prototype.generate;
JwtTokenGenerator.prototype.generate = async function generateWithAccessClaims(...args) {
  const tokens = await generate.apply(this, args);
  const id = jwt.decode(tokens.IdToken);
  const copied = Object.fromEntries(names.filter((n) => id && n in id).map((n) => [n, id[n]]));
  if (Object.keys(copied).length === 0) return tokens;
  const access = { ...jwt.decode(tokens.AccessToken), ...copied };
  return { ...tokens, AccessToken: jwt.sign(access, key.pem, { algorithm: 'RS256', keyid: 'CognitoLocal' }) };
};

const { Targets } = local('./lib/targets/targets.js');
Targets.GetTokensFromRefreshToken = (services) => {
  const initiateAuth = Targets.InitiateAuth(services);
  return async (ctx, req) => {
    const res = await initiateAuth(ctx, { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: req.ClientId, ClientMetadata: req.ClientMetadata, AuthParameters: { REFRESH_TOKEN: req.RefreshToken } });
    return { AuthenticationResult: res.AuthenticationResult };
  };
};
