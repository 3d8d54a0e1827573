import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveEvent, LiveResult } from '../../lambdas/live/live';

/**
 * API Gateway's WebSocket API, locally: the same protocol as the live-updates API of
 * cdk/lib/constructs/live.ts.
 *
 * - A browser connects to ws://…/: the function's `$connect` route decides
 *   (anything but 200 refuses the handshake with that status, as API Gateway does).
 * - A message's route is its `action` field (route selection `$request.body.action`) when a route
 *   of that name exists, else `$default`; a closed socket runs `$disconnect`.
 * - The management API on the same port: POST /@connections/<id> sends the body to that
 *   connection, GET describes it, DELETE closes it; an unknown id answers 410 GoneException, which
 *   @aws-sdk/client-apigatewaymanagementapi reads as in AWS.
 */
interface WebSocketGatewayOptions {
  readonly port: number;
  /** The routes besides $connect, $disconnect and $default. */
  readonly routes: readonly string[];
  /** The integration: one function for every route, like the stack's. */
  readonly handler: (event: LiveEvent) => Promise<LiveResult>;
  readonly onError?: (err: unknown) => void;
}

/** API Gateway's connection ids look like this: 12 base64 characters ending in '='. */
const newConnectionId = () => randomBytes(9).toString('base64').replace(/\//g, '_').replace(/\+/g, '-').slice(0, 11) + '=';

export const startWebSocketGateway = async ({ port, routes, handler, onError = () => undefined }: WebSocketGatewayOptions) => {
  const sockets = new Map<string, { socket: WebSocket; connectedAt: Date; lastActiveAt: Date }>();
  const wss = new WebSocketServer({ noServer: true });

  const gone = (res: import('node:http').ServerResponse) =>
    res.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' }).end(JSON.stringify({ message: 'Gone' }));

  const server: Server = createServer((req, res) => {
    const match = /^\/@connections\/([^/?]+)/.exec(req.url ?? '');
    if (!match?.[1]) return void res.writeHead(404).end();
    const id = decodeURIComponent(match[1]);
    const entry = sockets.get(id);
    if (!entry) return void gone(res);
    if (req.method === 'GET') {
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ connectedAt: entry.connectedAt.toISOString(), lastActiveAt: entry.lastActiveAt.toISOString(), identity: { sourceIp: '127.0.0.1' } }));
    }
    if (req.method === 'DELETE') {
      entry.socket.close(1000);
      return void res.writeHead(204).end();
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      entry.socket.send(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });

  const refuse = (socket: Duplex, status: number) => {
    const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Internal Server Error';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const connectionId = newConnectionId();
    // The handshake's headers, as API Gateway hands them to $connect.
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
    handler({ requestContext: { routeKey: '$connect', connectionId }, headers })
      .then((result) => {
        if (result.statusCode !== 200) return refuse(socket, result.statusCode);
        wss.handleUpgrade(req, socket, head, (ws) => {
          const now = new Date();
          sockets.set(connectionId, { socket: ws, connectedAt: now, lastActiveAt: now });
          ws.on('message', (data: Buffer) => {
            const body = data.toString('utf8');
            const entry = sockets.get(connectionId);
            if (entry) entry.lastActiveAt = new Date();
            let action: unknown;
            try {
              action = (JSON.parse(body) as { action?: unknown }).action;
            } catch {
              action = undefined;
            }
            const routeKey = typeof action === 'string' && routes.includes(action) ? action : '$default';
            handler({ requestContext: { routeKey, connectionId }, body }).catch(onError);
          });
          ws.on('close', () => {
            sockets.delete(connectionId);
            handler({ requestContext: { routeKey: '$disconnect', connectionId } }).catch(onError);
          });
        });
      })
      .catch((err: unknown) => {
        onError(err);
        refuse(socket, 500);
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    server,
    /** What the browser connects to. */
    url: `ws://localhost:${port}`,
    /** The management API's endpoint (LIVE_CONNECTIONS_ENDPOINT). */
    endpoint: `http://127.0.0.1:${port}`,
    connectionCount: () => sockets.size,
    close: async () => {
      for (const { socket } of sockets.values()) socket.terminate();
      wss.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    },
  };
};
