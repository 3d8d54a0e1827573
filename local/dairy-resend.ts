/**
 * `npm run dairy-resend`: sends a farm's refused dairy-company events again, against the running
 * local stack (`npm start`): they go back in the queue, due now, and the stack's minute sync sends
 * them (the same repository call as DAIRY_EVENT_RESEND, the Admin's button on the farm's dairy log).
 *   npm run dairy-resend -- --farm <farm id or supply number> [--key <event key>]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import './quiet-warnings';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const farmArg = option('farm');
if (!farmArg) {
  console.error('Usage: npm run dairy-resend -- --farm <farm id or supply number> [--key <event key>]');
  process.exit(2);
}

const file = join(resolve(import.meta.dirname, '..'), '.data', 'local.json');
let facts: { dynamodb?: { endpoint: string; farmsTable: string } };
try {
  facts = JSON.parse(readFileSync(file, 'utf8')) as typeof facts;
} catch {
  console.error(`The local stack is not running: ${file} not found. Start it with: npm start`);
  process.exit(1);
}
if (!facts.dynamodb) {
  console.error(`${file} has no dynamodb entry: restart the stack with npm start.`);
  process.exit(1);
}
// Local only: never reach for real AWS credentials or the instance metadata service.
Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_REGION: 'us-east-1', DYNAMODB_ENDPOINT: facts.dynamodb.endpoint });
delete process.env.AWS_PROFILE;
delete process.env.AWS_SESSION_TOKEN;

const { createDocumentClient } = await import('../lambdas/adapters/dynamodb/client');
const { dynamoFarmRepository } = await import('../lambdas/adapters/dynamodb/farms-repository');
const { dynamoDairyRepository } = await import('../lambdas/adapters/dynamodb/dairy-repository');
const doc = createDocumentClient();
const farms = dynamoFarmRepository(doc, facts.dynamodb.farmsTable);
const farm = (await farms.getFarm(farmArg)) ?? (await farms.findFarmBySupplyNumber(farmArg.toUpperCase()));
if (!farm) {
  console.error(`No farm ${farmArg} (neither a farm id nor a supply number).`);
  process.exit(1);
}
const requeued = await dynamoDairyRepository(doc, facts.dynamodb.farmsTable).requeueRefused(farm._id, new Date().toISOString(), option('key'));
console.log(requeued.length ? `Queued again for ${farm.fonterra_id} (${farm._id}):\n  ${requeued.join('\n  ')}` : `No refused events on ${farm.fonterra_id} (${farm._id}).`);
