import { join } from 'node:path';
import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { createLogger } from '../../../lambdas/lib/logger';
import { startCognito } from '../../stand-ins/cognito';
import { cognitoMessages, poolUsers } from '../../stand-ins/cognito-messages';
import { startLambdaInvoke, type InvokeTarget } from '../../stand-ins/lambda-invoke';
import type { SnsOutbox } from '../../stand-ins/sns-outbox';
import type { Closers } from '../closers';
import { importFunction, TRIGGER_FUNCTIONS, type LocalConfig } from '../config';

const log = createLogger({ service: 'local-stack' });

/**
 * Cognito (cognito-local) with the product's triggers, run through a Lambda Invoke stand-in; its
 * emails and texts go to the outbox (cognito-local only prints them).
 */
export const startUserPool = async (config: LocalConfig, closers: Closers, sns: SnsOutbox) => {
  const trigger = async (file: string): Promise<InvokeTarget> => (await importFunction<{ handler: InvokeTarget }>(config, `lambdas/triggers/${file}`)).handler;
  // Codes come only once cognito-local has started, so the pool is there to read their users from.
  const cognitoMail = cognitoMessages(sns, config.webUrl, { userOf: (email) => poolUsers(cognito.client, cognito.userPoolId).userOf(email) });
  const lambdas = await startLambdaInvoke(
    config.ports.lambda,
    {
      [TRIGGER_FUNCTIONS.CustomMessage]: async () => {
        const handler = await trigger('custom-message.ts');
        return async (event) => {
          cognitoMail.noteTrigger(event as CustomMessageTriggerEvent);
          return handler(event);
        };
      },
      // A confirmed sign-up gets its alert-email topic and subscription.
      [TRIGGER_FUNCTIONS.PostConfirmation]: () => trigger('post-confirmation.ts'),
      // Every self-service sign-up passes the bot-check (off locally by BOT_CHECK).
      [TRIGGER_FUNCTIONS.PreSignUp]: () => trigger('pre-sign-up.ts'),
      // Every token says whether its user has an authenticator app.
      [TRIGGER_FUNCTIONS.PreTokenGeneration]: () => trigger('pre-token-generation.ts'),
    },
    (name, err) => log.error('trigger failed', { name, err }),
  );
  closers.addServer(lambdas.server);

  const cognito = await startCognito({
    port: config.ports.cognito,
    dir: join(config.dataDir, 'cognito'),
    lambdaEndpoint: lambdas.endpoint,
    triggers: TRIGGER_FUNCTIONS,
    onCode: (c) => {
      // Cognito emails or texts the code itself in AWS; here it goes to the outbox and the console.
      void cognitoMail
        .deliver(c)
        .then((mail) => {
          if (!mail) return;
          log.info('cognito message delivered to the outbox', { channel: mail.channel, to: mail.to, code: c.code });
          // A person running `npm start` reads the code on the console; the tests find it in the outbox.
          if (config.printCodes) console.log(`\n  ✉  ${mail.subject ?? 'Text'} for ${mail.to}: code ${c.code}\n`);
        })
        .catch((err: unknown) => log.error('cognito message not delivered to the outbox', { to: c.destination, err }));
    },
  });
  closers.add(() => cognito.stop());
  return cognito;
};
