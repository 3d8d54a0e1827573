import { createServer, type Server } from 'node:http';

export type InvokeTarget = (event: unknown) => Promise<unknown>;

/**
 * Lambda Invoke API stand-in (POST /2015-03-31/functions/{name}/invocations), so cognito-local
 * runs the product's Cognito triggers the way the user pool does in AWS. Each function is
 * loaded on first use.
 */
export const startLambdaInvoke = async (
  port: number,
  functions: Readonly<Record<string, () => Promise<InvokeTarget>>>,
  onError: (name: string, err: unknown) => void,
): Promise<{ server: Server; endpoint: string }> => {
  const loaded = new Map<string, Promise<InvokeTarget>>();
  const server = createServer((req, res) => {
    const name = req.url?.match(/^\/2015-03-31\/functions\/([^/]+)\/invocations/)?.[1];
    const load = name ? functions[decodeURIComponent(name)] : undefined;
    if (req.method !== 'POST' || !name || !load) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' }).end(JSON.stringify({ Type: 'User', message: `Function not found: ${name ?? req.url}` }));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      void (async () => {
        try {
          let fn = loaded.get(name);
          if (!fn) {
            fn = load();
            loaded.set(name, fn);
          }
          const result = await (await fn)(body ? (JSON.parse(body) as unknown) : {});
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result ?? null));
        } catch (err) {
          onError(name, err);
          const message = err instanceof Error ? err.message : String(err);
          res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end(JSON.stringify({ errorType: 'Error', errorMessage: message }));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, endpoint: `http://127.0.0.1:${port}` };
};
