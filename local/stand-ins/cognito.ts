import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  ListGroupsCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  SetUserPoolMfaConfigCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { OPERATOR_GROUPS, TOTP_CLAIM, TOTP_CONFIRMED_ATTRIBUTE, WEB_CLIENT_WRITE_ATTRIBUTES } from '../../shared/roles';

const LOCAL_REGION = 'us-east-1';
/** AWS-shaped, so Amplify and the SDK read a region from it as they do in AWS. */
const LOCAL_POOL_ID = `${LOCAL_REGION}_VatManLcl`;
const CLIENT_NAME = 'vat-man-web';

export interface CognitoStandIn {
  readonly endpoint: string;
  readonly userPoolId: string;
  readonly clientId: string;
  readonly region: string;
  readonly issuer: string;
  readonly client: CognitoIdentityProviderClient;
  /**
   * The authenticator secret the pool holds for a user (by email), where the stand-in keeps it:
   * the demo's operators sign in with it on every start, whatever else of the data folder is gone.
   * AWS never gives a secret back; this is the local demo's view of its own store.
   */
  totpSecretOf(email: string): string | undefined;
  stop(): Promise<void>;
}

export interface DeliveredCode {
  readonly destination: string;
  readonly code: string;
  /** Set when a CustomMessage trigger gave the email a subject. */
  readonly subject?: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** cognito-local prints each code in a box; pick out destination and code. */
const parseCodeDelivery = (chunk: string): DeliveredCode | undefined => {
  const text = chunk.replace(ANSI, '');
  if (!text.includes('Confirmation Code Delivery')) return undefined;
  const field = (name: string) => text.match(new RegExp(`${name}:\\s+([^│\\n]+?)\\s*(?:│|\\n|$)`))?.[1]?.trim();
  const code = field('Code');
  const destination = field('Destination');
  if (!code || !destination) return undefined;
  const subject = field('Email Subject');
  return { code, destination, ...(subject ? { subject } : {}) };
};

/**
 * The pool's schema as in AWS (cdk/lib/constructs/auth.ts): Cognito's standard attributes and the
 * product's custom one. cognito-local checks attribute writes against the schema, and a pool file
 * without one falls back to the standard attributes alone; a data folder from an earlier start gets
 * the custom attribute added here.
 */
interface StoredUser {
  readonly Attributes?: readonly { Name: string; Value?: string }[];
  readonly SoftwareTokenMfaConfiguration?: { Secret?: string };
}

/** cognito-local writes its pool file on every change, so this reads what the pool holds now. */
const storedTotpSecret = (poolFile: string, email: string): string | undefined => {
  const { Users = {} } = JSON.parse(readFileSync(poolFile, 'utf8')) as { Users?: Record<string, StoredUser> };
  const wanted = email.toLowerCase();
  const user = Object.values(Users).find((u) => u.Attributes?.some((a) => a.Name === 'email' && a.Value?.toLowerCase() === wanted));
  return user?.SoftwareTokenMfaConfiguration?.Secret;
};

const withCustomAttributes = (poolFile: string): void => {
  const pool = JSON.parse(readFileSync(poolFile, 'utf8')) as { Options: { SchemaAttributes?: { Name: string }[] } };
  const name = `custom:${TOTP_CONFIRMED_ATTRIBUTE}`;
  const schema = pool.Options.SchemaAttributes ?? (createRequire(import.meta.url)('cognito-local/lib/services/cognitoService.js') as { USER_POOL_AWS_DEFAULTS: { SchemaAttributes: { Name: string }[] } }).USER_POOL_AWS_DEFAULTS.SchemaAttributes;
  if (schema.some((a) => a.Name === name)) return;
  pool.Options.SchemaAttributes = [
    ...schema,
    { Name: name, AttributeDataType: 'String', DeveloperOnlyAttribute: false, Mutable: true, Required: false, StringAttributeConstraints: { MinLength: '1', MaxLength: '20' } } as { Name: string },
  ];
  writeFileSync(poolFile, JSON.stringify(pool));
};

/**
 * cognito-local's logger batches its writes, so one chunk of its output may hold two boxes (a
 * sign-up's code and the verification code sent right after it) or only the start of one: each
 * complete box is read on its own, and an unfinished one is kept for the next chunk.
 */
export const takeCodeBoxes = (printed: string): { delivered: DeliveredCode[]; rest: string } => {
  const text = printed.replace(ANSI, '');
  const end = text.lastIndexOf('╯');
  const open = text.indexOf('╭', end + 1);
  const delivered = (text.slice(0, end + 1).match(/╭[^╭╯]*╯/g) ?? []).flatMap((box) => parseCodeDelivery(box) ?? []);
  return { delivered, rest: open < 0 ? '' : text.slice(open) };
};

const waitUntilUp = async (client: CognitoIdentityProviderClient, child: ChildProcess, ms: number) => {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`cognito-local exited with code ${child.exitCode}; see .data/cognito/cognito-local.log`);
    try {
      await client.send(new ListUserPoolsCommand({ MaxResults: 1 }));
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`cognito-local did not answer within ${ms} ms`, { cause: err });
      await new Promise((r) => setTimeout(r, 150));
    }
  }
};

/**
 * Cognito stand-in: cognito-local as a child process, its state in `<dir>/.cognito`. The user
 * pool, the web app client and the operator groups are created on first start and reused after.
 */
interface CognitoOptions {
  readonly port: number;
  readonly dir: string;
  readonly onCode: (c: DeliveredCode) => void;
  /** Where the Lambda Invoke stand-in listens, and the trigger functions it serves. */
  readonly lambdaEndpoint?: string;
  readonly triggers?: Readonly<Record<string, string>>;
}

export const startCognito = async ({ port, dir, onCode, lambdaEndpoint, triggers }: CognitoOptions): Promise<CognitoStandIn> => {
  const endpoint = `http://127.0.0.1:${port}`;
  const dbDir = join(dir, '.cognito', 'db');
  mkdirSync(dbDir, { recursive: true });
  // The issuer in tokens is <IssuerDomain>/<poolId>; pin it to where the stand-in listens.
  writeFileSync(
    join(dir, '.cognito', 'config.json'),
    JSON.stringify(
      {
        TokenConfig: { IssuerDomain: endpoint },
        ...(lambdaEndpoint && triggers
          ? {
              TriggerFunctions: triggers,
              LambdaClient: { endpoint: lambdaEndpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
            }
          : {}),
      },
      null,
      2,
    ),
  );
  const poolFile = join(dbDir, `${LOCAL_POOL_ID}.json`);
  if (!existsSync(poolFile)) {
    const now = new Date().toISOString();
    writeFileSync(
      poolFile,
      JSON.stringify({
        Options: {
          Id: LOCAL_POOL_ID,
          Name: 'vat-man-local',
          Arn: `arn:aws:cognito-idp:${LOCAL_REGION}:000000000000:userpool/${LOCAL_POOL_ID}`,
          UsernameAttributes: ['email'],
          AutoVerifiedAttributes: ['email'],
          MfaConfiguration: 'OPTIONAL',
          CreationDate: now,
          LastModifiedDate: now,
        },
        Users: {},
        Groups: {},
      }),
    );
  }
  withCustomAttributes(poolFile);
  const require = createRequire(import.meta.url);
  const bin = require.resolve('cognito-local/lib/bin/start.js');
  const log = createWriteStream(join(dir, 'cognito-local.log'), { flags: 'a' });
  // The preload makes cognito-local behave as Cognito where the product's security rests on it
  // (claims in the access token, auth_time kept on refresh, global sign-out, client write attributes).
  const preload = new URL('./cognito-token-claims.mjs', import.meta.url).href;
  // The other prints each code the moment it is sent (cognito-local's logger may hold it back).
  const printCodes = new URL('./cognito-code-delivery.mjs', import.meta.url).href;
  const child = spawn(process.execPath, ['--import', preload, '--import', printCodes, bin], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', COGNITO_LOCAL_ACCESS_CLAIMS: TOTP_CLAIM },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printing = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    log.write(chunk);
    const { delivered, rest } = takeCodeBoxes(printing + chunk);
    printing = rest;
    for (const d of delivered) onCode(d);
  });
  child.stderr?.pipe(log);

  const client = new CognitoIdentityProviderClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitUntilUp(client, child, 20_000);
    const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: LOCAL_POOL_ID, MaxResults: 60 }));
    let clientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
    if (!clientId) {
      const created = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId: LOCAL_POOL_ID,
          ClientName: CLIENT_NAME,
          ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        }),
      );
      clientId = created.UserPoolClient?.ClientId;
    }
    if (!clientId) throw new Error('cognito-local did not create the app client');
    // As the web client in AWS: it writes standard attributes only (the preload enforces it), also
    // for a client made by an earlier start.
    await client.send(new UpdateUserPoolClientCommand({ UserPoolId: LOCAL_POOL_ID, ClientId: clientId, WriteAttributes: [...WEB_CLIENT_WRITE_ATTRIBUTES] }));
    // As the pool in AWS (cdk/lib/constructs/auth.ts): MFA optional, by authenticator app only;
    // also for a data folder made before operators needed TOTP.
    await client.send(new SetUserPoolMfaConfigCommand({ UserPoolId: LOCAL_POOL_ID, MfaConfiguration: 'OPTIONAL', SoftwareTokenMfaConfiguration: { Enabled: true } }));
    const groups = await client.send(new ListGroupsCommand({ UserPoolId: LOCAL_POOL_ID }));
    const have = new Set((groups.Groups ?? []).map((g) => g.GroupName));
    for (const g of OPERATOR_GROUPS) {
      if (!have.has(g)) await client.send(new CreateGroupCommand({ UserPoolId: LOCAL_POOL_ID, GroupName: g }));
    }
    const totpSecretOf = (email: string) => storedTotpSecret(poolFile, email);
    return { endpoint, userPoolId: LOCAL_POOL_ID, clientId, region: LOCAL_REGION, issuer: `${endpoint}/${LOCAL_POOL_ID}`, client, totpSecretOf, stop };
  } catch (err) {
    await stop();
    throw err;
  }
};
