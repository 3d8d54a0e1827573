/**
 * The dynalite server as its own process (started by startDynamo in ./dynamodb.ts). DynamoDB is a
 * separate service in AWS; here too it gets its own core, so the SDK, the broker and the handlers
 * in the stack's process do not share one event loop with LevelDB.
 * argv: <port> [path]. Sends 'ready' over IPC once listening; exits when the parent goes away.
 * IPC `{ throttleWrites: f }` (0 ≤ f ≤ 1) refuses that share of writes with DynamoDB's
 * ProvisionedThroughputExceededException (fault-injection tests); answered `{ throttled: f }`.
 * IPC `{ failKeys: [prefix…] }` refuses every write touching an item whose pk starts with one of
 * them (`[]` turns it off); answered `{ failing }`. TransactWriteItems, which dynalite lacks, is
 * run by ./dynalite-transactions.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import dynalite from 'dynalite';
import { INTERNAL_HEADER, requestGate, transactionRunner } from './dynalite-transactions';

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
});

const [portArg, path] = process.argv.slice(2);
const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
let throttleWrites = 0;
/** Partition-key prefixes whose writes are refused (fault tests: one kind of item's writes fail). */
let failKeys: readonly string[] = [];
const gate = requestGate();
const transact = transactionRunner(`http://127.0.0.1:${portArg}`);
const [handle] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
server.removeAllListeners('request');

type Body = Record<string, unknown>;
const pkOf = (item: unknown): string | undefined => {
  const pk = (item as { pk?: { S?: unknown } } | undefined)?.pk?.S;
  return typeof pk === 'string' ? pk : undefined;
};
/** The partition keys a write request touches (the tables' partition key is `pk`). */
const writtenKeys = (action: string, body: Body): (string | undefined)[] => {
  if (action === 'PutItem') return [pkOf(body.Item)];
  if (action === 'UpdateItem' || action === 'DeleteItem') return [pkOf(body.Key)];
  if (action === 'BatchWriteItem') {
    const requests = Object.values((body.RequestItems ?? {}) as Record<string, { PutRequest?: { Item?: unknown }; DeleteRequest?: { Key?: unknown } }[]>).flat();
    return requests.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key));
  }
  if (action === 'TransactWriteItems') {
    return ((body.TransactItems ?? []) as { Put?: { Item?: unknown }; Update?: { Key?: unknown }; Delete?: { Key?: unknown }; ConditionCheck?: { Key?: unknown } }[]).map((t) =>
      pkOf(t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key),
    );
  }
  return [];
};

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `standin-${Date.now()}` });
  res.end(JSON.stringify(body));
};

/** The refusal of a write that touches a failing key: a transaction is cancelled naming the item, as DynamoDB does when one of its items is throttled. */
const refuseFailingKey = (res: ServerResponse, action: string, keys: readonly (string | undefined)[]) => {
  if (action !== 'TransactWriteItems') {
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `failing-${Date.now()}` });
    res.end(THROTTLED);
    return;
  }
  const reasons = keys.map((k) => (k !== undefined && failKeys.some((p) => k.startsWith(p)) ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly.' } : { Code: 'None' }));
  const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`;
  answer(res, 400, { __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', message, Message: message, CancellationReasons: reasons });
};

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** dynalite's handler over a body already read (it reads the request stream itself). */
const replay = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
  const copy = Object.assign(new PassThrough(), { headers: req.headers, method: req.method, url: req.url }) as unknown as IncomingMessage;
  handle?.(copy, res);
  (copy as unknown as PassThrough).end(body);
};

server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
  // The transaction's own single-item writes: it holds the gate already.
  if (req.headers[INTERNAL_HEADER]) {
    handle?.(req, res);
    return;
  }
  if (throttleWrites > 0 && WRITES.has(action) && Math.random() < throttleWrites) {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `throttled-${Date.now()}` });
    res.end(THROTTLED);
    return;
  }
  void (async () => {
    if (!WRITES.has(action)) {
      const done = await gate.shared();
      res.once('close', done);
      handle?.(req, res);
      return;
    }
    const raw = await readBody(req);
    let body: Body = {};
    try {
      body = JSON.parse(raw.toString() || '{}') as Body;
    } catch {
      // dynalite answers a body that is not JSON itself.
    }
    const keys = writtenKeys(action, body);
    if (failKeys.length && keys.some((k) => k !== undefined && failKeys.some((p) => k.startsWith(p)))) {
      refuseFailingKey(res, action, keys);
      return;
    }
    if (action === 'TransactWriteItems') {
      const result = await gate.alone(() => transact(body));
      answer(res, result.status, result.body);
      return;
    }
    const done = await gate.shared();
    res.once('close', done);
    replay(req, res, raw);
  })().catch((err: unknown) => {
    if (!res.headersSent) answer(res, 500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: err instanceof Error ? err.message : String(err) });
  });
});
process.on('message', (m: { throttleWrites?: number; failKeys?: readonly string[] }) => {
  if (Array.isArray(m?.failKeys)) {
    failKeys = m.failKeys.filter((k): k is string => typeof k === 'string');
    process.send?.({ failing: failKeys });
    return;
  }
  if (typeof m?.throttleWrites !== 'number') return;
  throttleWrites = Math.min(1, Math.max(0, m.throttleWrites));
  process.send?.({ throttled: throttleWrites });
});
server.once('error', (err) => {
  process.send?.({ error: err.message });
  process.exit(1);
});
// The SDK keeps its sockets open between calls with no idle limit of its own; Node's server closes
// an idle one after 5 s, and a call sent on it as it closes fails with 'socket hang up' (the
// ingest's writes under load, before the SDK's retry). DynamoDB keeps idle connections far longer.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;
server.listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
const stop = () => server.close(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
