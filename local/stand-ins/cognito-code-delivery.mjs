/**
 * Preloaded into cognito-local (node --import): each code it "delivers" is printed at once, with a
 * synchronous write to stdout, in the same box as cognito-local prints it.
 *
 * cognito-local prints the box through its pino-pretty logger, whose asynchronous writes can hold
 * a box back until something else is logged: the last sign-up of a run then got its verification
 * email only when the next request came, seconds later, or never. The local stack reads these boxes
 * to put Cognito's emails and texts in the outbox (cognito.ts), so they must arrive as they happen.
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

const local = createRequire(createRequire(import.meta.url).resolve('cognito-local/package.json'));
const boxen = local('boxen');
const { ConsoleMessageSender } = local('./lib/services/messageDelivery/consoleMessageSender.js');

const print = ConsoleMessageSender.prototype.sendToConsole;
ConsoleMessageSender.prototype.sendToConsole = function printAtOnce(ctx, user, destination, message) {
  const { __code, ...words } = message;
  const fields = {
    Username: user.Username,
    Destination: destination,
    Code: __code,
    'Email Subject': words.emailSubject,
    'Email Message': words.emailMessage,
    'SMS Message': words.smsMessage,
  };
  const shown = Object.entries(fields).filter(([, v]) => Boolean(v));
  const width = Math.max(...shown.map(([k]) => k.length)) + 1;
  const box = boxen(`Confirmation Code Delivery\n\n${shown.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v}`).join('\n')}`, { borderStyle: 'round', padding: 1 });
  try {
    writeSync(1, `${box}\n`);
    return Promise.resolve();
  } catch {
    // A full pipe (EAGAIN): the logger's own, later, print.
    return print.call(this, ctx, user, destination, message);
  }
};
