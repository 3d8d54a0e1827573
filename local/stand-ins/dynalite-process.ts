/**
 * The dynalite server as its own process (started by startDynamo in ./dynamodb.ts). DynamoDB is a
 * separate service in AWS; here too it gets its own core, so the SDK, the broker and the handlers
 * in the stack's process do not share one event loop with LevelDB.
 * argv: <port> [path]. Sends 'ready' over IPC once listening; exits when the parent goes away.
 * IPC `{ throttleWrites: f }` (0 ≤ f ≤ 1) refuses that share of writes with DynamoDB's
 * ProvisionedThroughputExceededException (fault-injection tests); answered `{ throttled: f }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import dynalite from 'dynalite';

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
});

const [portArg, path] = process.argv.slice(2);
const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
let throttleWrites = 0;
const [handle] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
server.removeAllListeners('request');
server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const action = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
  if (throttleWrites > 0 && WRITES.has(action) && Math.random() < throttleWrites) {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `throttled-${Date.now()}` });
    res.end(THROTTLED);
    return;
  }
  handle?.(req, res);
});
process.on('message', (m: { throttleWrites?: number }) => {
  if (typeof m?.throttleWrites !== 'number') return;
  throttleWrites = Math.min(1, Math.max(0, m.throttleWrites));
  process.send?.({ throttled: throttleWrites });
});
server.once('error', (err) => {
  process.send?.({ error: err.message });
  process.exit(1);
});
server.listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
const stop = () => server.close(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
