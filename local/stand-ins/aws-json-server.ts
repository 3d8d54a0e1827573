import { createServer, type Server } from 'node:http';

/** Listens on 127.0.0.1 only: the stand-ins serve this machine's stack, nobody else. */
export const listenLocal = (server: Server, port: number): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

type AwsJsonAnswer = (status: number, body: unknown) => void;

/**
 * A stand-in for a service that speaks the AWS JSON protocol (X-Amz-Target names the action):
 * `handle` gets the action without the service's prefix, the request's body and how to answer.
 * A body that is not JSON is answered 400 (`notJsonType`) without reaching `handle`.
 */
export const startAwsJsonServer = async (
  port: number,
  o: { readonly version: '1.0' | '1.1'; readonly targetPrefix: RegExp; readonly notJsonType: string },
  handle: (action: string, input: Record<string, unknown>, answer: AwsJsonAnswer) => void,
): Promise<Server> => {
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const answer: AwsJsonAnswer = (status, body) => res.writeHead(status, { 'content-type': `application/x-amz-json-${o.version}` }).end(JSON.stringify(body));
      const action = String(req.headers['x-amz-target'] ?? '').replace(o.targetPrefix, '');
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(text || '{}') as Record<string, unknown>;
      } catch {
        return answer(400, { __type: o.notJsonType, message: 'The request body is not JSON' });
      }
      handle(action, input, answer);
    });
  });
  await listenLocal(server, port);
  return server;
};
