import { botCheckFromEnv, type BotCheck } from '../adapters/bot-check/bot-check';
import { identityProviderFromEnv, type IdentityProvider } from '../adapters/cognito/identity-provider';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { dynamoFarmRepository, type FarmRepository } from '../adapters/dynamodb/farms-repository';
import { dynamoReadingsRepository, type ReadingsRepository } from '../adapters/dynamodb/readings-repository';
import { requireEnv } from './env';
import { tokenVerifierFromEnv, type TokenVerifier } from './token-verifier';

/** The ports an API action may use. Tests build their own; Lambdas build these at cold start. */
export interface Deps {
  readonly farms: FarmRepository;
  readonly readings: ReadingsRepository;
  readonly identity: IdentityProvider;
  readonly verifier: TokenVerifier;
  readonly botCheck: BotCheck;
  readonly now: () => Date;
}

export const defaultDeps = (env: NodeJS.ProcessEnv = process.env): Deps => {
  const doc = createDocumentClient(env);
  return {
    farms: dynamoFarmRepository(doc, requireEnv('FARMS_TABLE', env)),
    readings: dynamoReadingsRepository(doc, requireEnv('READINGS_TABLE', env)),
    identity: identityProviderFromEnv(env),
    verifier: tokenVerifierFromEnv(env),
    botCheck: botCheckFromEnv(env),
    now: () => new Date(),
  };
};
