/**
 * The dynalite server as its own process (started by startDynamo in ./dynamodb.ts). DynamoDB is a
 * separate service in AWS; here too it gets its own core, so the SDK, the broker and the handlers
 * in the stack's process do not share one event loop with LevelDB.
 * argv: <port> [path]. Sends 'ready' over IPC once listening; exits when the parent goes away.
 */
import dynalite from 'dynalite';

const [portArg, path] = process.argv.slice(2);
const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (err) => {
  process.send?.({ error: err.message });
  process.exit(1);
});
server.listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
const stop = () => server.close(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
