import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Signs an RS256 JWT, for tokens the real pool would never issue (forged, expired, foreign). */
export const signJwt = (payload: Record<string, unknown>, key: KeyObject | string, kid: string): string => {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const body = b64url(JSON.stringify(payload));
  const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(key);
  return `${head}.${body}.${b64url(signature)}`;
};

/** A key pair nobody trusts. */
export const strangerKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

/** cognito-local's own signing key: lets a test mint a token that differs in one claim only. */
export const cognitoLocalKey = (): { pem: string; kid: string } => {
  const require = createRequire(import.meta.url);
  const key = require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
  return { pem: key.pem, kid: 'CognitoLocal' };
};

export const decodeJwt = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
