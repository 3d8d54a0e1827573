import {
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  AssociateSoftwareTokenCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { generateSync } from 'otplib';
import { TOTP_CONFIRMED_ATTRIBUTE } from '../../shared/roles';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-data';

/** The authenticator app's current code for a base32 secret (RFC 6238: SHA-1, 6 digits, 30 s), as Cognito checks it. */
export const totpCode = (secret: string): string => generateSync({ secret });

/**
 * Enrols the demo operators' authenticator apps (operator roles need TOTP), as a person does on the
 * enrolment screen: sign in, AssociateSoftwareToken, VerifySoftwareToken with a code,
 * SetUserMFAPreference; the emailed confirmation that follows on the screen is recorded directly
 * (`confirmDemoTotp`). `known` answers the secret the pool already holds for an account (the
 * Cognito data keeps it, so a start never depends on .data/local.json): an account enrolled before
 * is left as it is. Answers every demo operator's secret by email.
 */
export const enrolDemoTotp = async (
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  clientId: string,
  known: (email: string) => string | undefined,
): Promise<Record<string, string>> => {
  const secrets = await enrolDemoApps(cognito, clientId, known);
  for (const email of Object.keys(secrets)) await confirmDemoTotp(cognito, userPoolId, email);
  return secrets;
};

/** The demo's stand-in for the emailed confirmation: the time it was confirmed, once (kept across starts). */
const confirmDemoTotp = async (cognito: CognitoIdentityProviderClient, userPoolId: string, email: string): Promise<void> => {
  const name = `custom:${TOTP_CONFIRMED_ATTRIBUTE}`;
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
  if (user.UserAttributes?.some((a) => a.Name === name)) return;
  const at = String(Math.floor(Date.now() / 1000));
  await cognito.send(new AdminUpdateUserAttributesCommand({ UserPoolId: userPoolId, Username: email, UserAttributes: [{ Name: name, Value: at }] }));
};

const enrolDemoApps = async (
  cognito: CognitoIdentityProviderClient,
  clientId: string,
  known: (email: string) => string | undefined,
): Promise<Record<string, string>> => {
  const secrets: Record<string, string> = {};
  for (const a of DEMO_ACCOUNTS.filter((account) => account.group)) {
    const signIn = await cognito.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: a.email, PASSWORD: DEMO_PASSWORD } }));
    if (signIn.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
      const secretBefore = known(a.email);
      if (!secretBefore) throw new Error(`Seed: ${a.email} asks for an authenticator code but the Cognito data holds no secret for it; remove the data folder's cognito directory to start over.`);
      secrets[a.email] = secretBefore;
      continue;
    }
    const accessToken = signIn.AuthenticationResult?.AccessToken;
    if (!accessToken) throw new Error(`Seed: ${a.email} did not sign in (${signIn.ChallengeName ?? 'no tokens'})`);
    secrets[a.email] = await enrolTotp(cognito, accessToken);
  }
  return secrets;
};

/**
 * What the enrolment screen does for the person holding `accessToken`: AssociateSoftwareToken,
 * VerifySoftwareToken with the first code, then TOTP as their sign-in factor. Answers the secret.
 */
export const enrolTotp = async (cognito: CognitoIdentityProviderClient, accessToken: string): Promise<string> => {
  const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
  if (!SecretCode) throw new Error('Cognito gave no TOTP secret');
  await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(SecretCode), FriendlyDeviceName: 'Authenticator' }));
  await cognito.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
  return SecretCode;
};
