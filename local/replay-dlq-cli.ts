/**
 * `npm run replay-dlq`: re-drives the ingest's dead-lettered records (local/replay-dlq.ts).
 *
 * Locally (the stack running, `npm start`): the records in `.data/ingest-dead-letters.jsonl` are
 * published again over the local broker to their topics, so they take the rule → stream → ingest
 * path as at first; the file is then renamed `ingest-dead-letters.<time>.redriven.jsonl`.
 *   npm run replay-dlq [-- --file <path>]
 *
 * AWS (the AWS CLI v2 on the path, credentials of an operator): the queue and stream from the
 * stack's outputs (IngestDeadLetterQueueUrl, IngestStreamName).
 *   npm run replay-dlq -- --aws [--stack VatManStack] [--region ap-southeast-2]
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { tcpPortOf } from './tcp-ports';
import { deadLetterRecords, redrive, redriveAws, type AwsCli } from './replay-dlq';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

if (args.includes('--aws')) {
  const region = option('region');
  const aws: AwsCli = async (a) => {
    const { stdout } = await promisify(execFile)('aws', [...a, '--output', 'json', ...(region ? ['--region', region] : [])], { maxBuffer: 64 * 2 ** 20 });
    return stdout.trim() ? (JSON.parse(stdout) as unknown) : undefined;
  };
  const stack = option('stack') ?? 'VatManStack';
  const described = (await aws(['cloudformation', 'describe-stacks', '--stack-name', stack])) as { Stacks?: { Outputs?: { OutputKey: string; OutputValue: string }[] }[] };
  const outputs = new Map((described.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const queueUrl = outputs.get('IngestDeadLetterQueueUrl');
  const streamName = outputs.get('IngestStreamName');
  if (!queueUrl || !streamName) throw new Error(`stack ${stack} has no IngestDeadLetterQueueUrl / IngestStreamName outputs`);
  const n = await redriveAws(aws, { queueUrl, streamName });
  console.log(`re-drove ${n} records from ${queueUrl} onto ${streamName}`);
} else {
  const file = resolve(option('file') ?? join(process.cwd(), '.data', 'ingest-dead-letters.jsonl'));
  if (!existsSync(file)) {
    console.log(`no dead letters (${file} does not exist)`);
  } else {
    const records = deadLetterRecords(readFileSync(file, 'utf8'));
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${tcpPortOf('mqtt')}`, { clientId: `replay-dlq-${process.pid}` });
    const sends: Promise<unknown>[] = [];
    const n = redrive(records, (_key, data) => {
      const event = JSON.parse(data.toString('utf8')) as { payload: string; topic: string };
      sends.push(client.publishAsync(event.topic, Buffer.from(event.payload, 'base64'), { qos: 1 }));
    });
    await Promise.all(sends);
    await client.endAsync();
    renameSync(file, file.replace(/\.jsonl$/, `.${new Date().toISOString().replace(/[:.]/g, '-')}.redriven.jsonl`));
    console.log(`re-drove ${n} records from ${file} through mqtt://127.0.0.1:${tcpPortOf('mqtt')}`);
  }
}
