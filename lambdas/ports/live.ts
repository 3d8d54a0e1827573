/**
 * The live-updates WebSocket's connections (issue 26), in the Connections table: the connection
 * (pk `CONN#<id>`, sk `CONN`: its user and the farm it watches) and, per farm, one item per
 * watching connection (pk `LIVE#<farm>`, sk the connection id), so the ingest finds a farm's
 * connections with one Query. Both expire with API Gateway's 2-hour connection limit.
 */
export interface ConnectionRecord {
  readonly connectionId: string;
  readonly userId: string;
  /** The token's Cognito groups and TOTP claim at $connect: the subscription's farm check needs the caller's role. */
  readonly groups: readonly string[];
  readonly totp: boolean;
  readonly farm?: string;
}

export interface ConnectionsRepository {
  putConnection(record: Omit<ConnectionRecord, 'farm'>, now: Date): Promise<void>;
  getConnection(connectionId: string): Promise<ConnectionRecord | undefined>;
  /** Watches `farm` from now on (a connection watches one farm: the previous one is dropped). */
  subscribe(connectionId: string, farm: string, now: Date): Promise<void>;
  /** The connection and its farm's item. */
  removeConnection(connectionId: string): Promise<void>;
  listFarmConnections(farm: string): Promise<string[]>;
}

/**
 * Posts a message to a WebSocket connection through API Gateway's management API (the
 * @connections endpoint of the live-updates API; locally the stand-in's, which speaks the same).
 */
export interface LiveSender {
  /** False when the connection is gone (closed without $disconnect reaching us yet). */
  post(connectionId: string, message: unknown): Promise<boolean>;
}
