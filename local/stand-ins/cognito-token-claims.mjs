/**
 * Preloaded into cognito-local (node --import), for gaps of cognito-local 5.3 where it behaves
 * unlike Cognito in ways the product's security rests on.
 *
 * 1. It runs the pre-token-generation trigger as version 1, whose claims reach the ID token only,
 *    where AWS's version 2 (the user pool's setting in cdk/lib/constructs/auth.ts) adds them to the
 *    access token the API reads. This copies the claims named in COGNITO_LOCAL_ACCESS_CLAIMS
 *    (comma-separated) from the ID token the trigger shaped into the access token.
 * 2. A refresh keeps the `auth_time` of the sign-in that issued the refresh token, as Cognito does
 *    (cognito-local stamps the refresh time): the API's authenticator rule compares it.
 * 3. Amplify 6 renews a session with GetTokensFromRefreshToken, which cognito-local does not know
 *    (a 500): it is answered as InitiateAuth REFRESH_TOKEN_AUTH, the same refresh.
 * 4. AdminUserGlobalSignOut and GlobalSignOut (unknown to cognito-local) revoke every refresh token
 *    of the user, and GetUser then refuses their older access tokens, as Cognito refuses revoked
 *    tokens in its own API (to the second: a token of the sign-out's own second still passes).
 * 5. An app client's WriteAttributes are enforced on SignUp and UpdateUserAttributes, with
 *    Cognito's error, so a refused self-service write is refused locally too.
 * 6. AdminCreateUser runs the pre-sign-up trigger (PreSignUp_AdminCreateUser, with its
 *    ValidationData and ClientMetadata) before the account exists, as Cognito does; cognito-local
 *    runs it for SignUp only, and USER_SIGN_UP's bot-check rests on it.
 * Tokens are re-signed with cognito-local's own key.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';

// cognito-local is CommonJS: its modules are patched in the require cache its server then uses.
const local = createRequire(createRequire(import.meta.url).resolve('cognito-local/package.json'));
const jwt = local('jsonwebtoken');
const key = local('./lib/keys/cognitoLocal.private.json');
const { NotAuthorizedError, UserNotFoundError } = local('./lib/errors.js');
const { JwtTokenGenerator } = local('./lib/services/tokenGenerator.js');
const names = (process.env.COGNITO_LOCAL_ACCESS_CLAIMS || '').split(',').filter(Boolean);

/** The original sign-in's time while a refresh runs (its refresh token's iat is that time). */
const refreshing = new AsyncLocalStorage();
const sign = (payload) => jwt.sign(payload, key.pem, { algorithm: 'RS256', keyid: 'CognitoLocal' });

const generate = JwtTokenGenerator.prototype.generate;
JwtTokenGenerator.prototype.generate = async function generateLikeCognito(...args) {
  const tokens = await generate.apply(this, args);
  const authTime = refreshing.getStore()?.authTime;
  const id = jwt.decode(tokens.IdToken);
  const copied = Object.fromEntries(names.filter((n) => id && n in id).map((n) => [n, id[n]]));
  if (Object.keys(copied).length === 0 && authTime === undefined) return tokens;
  const kept = authTime === undefined ? {} : { auth_time: authTime };
  return {
    ...tokens,
    AccessToken: sign({ ...jwt.decode(tokens.AccessToken), ...copied, ...kept }),
    IdToken: authTime === undefined ? tokens.IdToken : sign({ ...id, ...kept }),
  };
};

const { Targets } = local('./lib/targets/targets.js');

const isRefresh = (flow) => flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN';
const withOriginalAuthTime = (target) => (services) => {
  const run = target(services);
  return async (ctx, req) => {
    if (!isRefresh(req.AuthFlow)) return run(ctx, req);
    const iat = jwt.decode(req.AuthParameters?.REFRESH_TOKEN ?? '')?.iat;
    return typeof iat === 'number' ? refreshing.run({ authTime: iat }, () => run(ctx, req)) : run(ctx, req);
  };
};
Targets.InitiateAuth = withOriginalAuthTime(Targets.InitiateAuth);
Targets.AdminInitiateAuth = withOriginalAuthTime(Targets.AdminInitiateAuth);

Targets.GetTokensFromRefreshToken = (services) => {
  const initiateAuth = Targets.InitiateAuth(services);
  return async (ctx, req) => {
    const res = await initiateAuth(ctx, { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: req.ClientId, ClientMetadata: req.ClientMetadata, AuthParameters: { REFRESH_TOKEN: req.RefreshToken } });
    return { AuthenticationResult: res.AuthenticationResult };
  };
};

const signOutEverywhere = async (ctx, userPool, username) => {
  const user = await userPool.getUserByUsername(ctx, username);
  if (!user) throw new UserNotFoundError();
  await userPool.saveUser(ctx, { ...user, RefreshTokens: [], SignedOutAt: Date.now() });
  return {};
};
Targets.AdminUserGlobalSignOut = ({ cognito }) => async (ctx, req) => signOutEverywhere(ctx, await cognito.getUserPool(ctx, req.UserPoolId), req.Username);
Targets.GlobalSignOut = ({ cognito }) => async (ctx, req) => {
  const token = jwt.decode(req.AccessToken ?? '');
  if (!token?.client_id || !token.username) throw new NotAuthorizedError('Invalid Access Token');
  return signOutEverywhere(ctx, await cognito.getUserPoolForClientId(ctx, token.client_id), token.username);
};

/** Cognito's refusal of an attribute outside the client's WriteAttributes (when the client names any). */
const checkWritable = async (cognito, ctx, clientId, attributes) => {
  const client = clientId ? await cognito.getAppClient(ctx, clientId) : undefined;
  const writable = client?.WriteAttributes;
  if (!Array.isArray(writable) || writable.length === 0) return;
  const refused = (attributes ?? []).map((a) => a.Name).filter((n) => !writable.includes(n));
  if (refused.length > 0) throw new NotAuthorizedError('A client attempted to write unauthorized attribute');
};
const signUp = Targets.SignUp;
Targets.SignUp = (services) => {
  const run = signUp(services);
  return async (ctx, req) => {
    await checkWritable(services.cognito, ctx, req.ClientId, req.UserAttributes);
    return run(ctx, req);
  };
};
const updateUserAttributes = Targets.UpdateUserAttributes;
Targets.UpdateUserAttributes = (services) => {
  const run = updateUserAttributes(services);
  return async (ctx, req) => {
    await checkWritable(services.cognito, ctx, jwt.decode(req.AccessToken ?? '')?.client_id, req.UserAttributes);
    return run(ctx, req);
  };
};

const adminCreateUser = Targets.AdminCreateUser;
Targets.AdminCreateUser = (services) => {
  const run = adminCreateUser(services);
  return async (ctx, req) => {
    if (services.triggers.enabled('PreSignUp')) {
      const userPool = await services.cognito.getUserPool(ctx, req.UserPoolId);
      // An existing username is refused before the trigger runs, as in Cognito.
      if (!(await userPool.getUserByUsername(ctx, req.Username))) {
        await services.triggers.preSignUp(ctx, {
          clientId: undefined,
          clientMetadata: req.ClientMetadata,
          source: 'PreSignUp_AdminCreateUser',
          userAttributes: req.UserAttributes ?? [],
          username: req.Username,
          userPoolId: req.UserPoolId,
          validationData: req.ValidationData ? Object.fromEntries(req.ValidationData.map((a) => [a.Name, a.Value])) : undefined,
        });
      }
    }
    return run(ctx, req);
  };
};

const getUser = Targets.GetUser;
Targets.GetUser = (services) => {
  const run = getUser(services);
  return async (ctx, req) => {
    const token = jwt.decode(req.AccessToken ?? '');
    if (token?.client_id && token.username) {
      const userPool = await services.cognito.getUserPoolForClientId(ctx, token.client_id);
      const user = await userPool.getUserByUsername(ctx, token.username);
      if (user?.SignedOutAt && Number(token.iat) < Math.floor(user.SignedOutAt / 1000)) throw new NotAuthorizedError('Access Token has been revoked');
    }
    return run(ctx, req);
  };
};
