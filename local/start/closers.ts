import type { Server } from 'node:net';

type Closer = () => Promise<void> | void;

/** What the local stack opened, closed in the reverse order on stop or on a failed start. */
export class Closers {
  private readonly list: Closer[] = [];

  add(close: Closer): void {
    this.list.push(close);
  }

  /** A server; keep-alive connections (the SDK clients') would hold close() open, so they end too. */
  addServer(server: Server): void {
    this.add(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          (server as Partial<import('node:http').Server>).closeAllConnections?.();
        }),
    );
  }

  async closeAll(): Promise<void> {
    for (const close of this.list.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined);
  }
}
