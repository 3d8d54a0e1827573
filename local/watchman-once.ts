/**
 * `npm run watchman`: one Watchman run against the running local stack (`npm start`),
 * as its hourly schedule would run it: the same handler, the tables named in .data/local.json.
 * Prints the run record (or why it did not run: on_status off, or another run holds the lease).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import './quiet-warnings';

const file = join(resolve(import.meta.dirname, '..'), '.data', 'local.json');
let facts: { dynamodb?: { endpoint: string; farmsTable: string; readingsTable: string } };
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
Object.assign(process.env, {
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_REGION: 'us-east-1',
  DYNAMODB_ENDPOINT: facts.dynamodb.endpoint,
  FARMS_TABLE: facts.dynamodb.farmsTable,
  READINGS_TABLE: facts.dynamodb.readingsTable,
});
delete process.env.AWS_PROFILE;
delete process.env.AWS_SESSION_TOKEN;
const { handler } = await import('../lambdas/watchman/handler');
// No scheduled event: the run does not read one.
console.log(JSON.stringify(await handler(undefined), null, 2));
