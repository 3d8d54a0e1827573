/**
 * The live-updates WebSocket's connections, in the Connections table: the connection
 * (pk `CONN#<id>`, sk `CONN`: its user and the farm it watches) and, per farm, one item per
 * watching connection (pk `LIVE#<farm>`, sk the connection id), so the ingest finds a farm's
 * connections with one Query. Both expire with API Gateway's 2-hour connection limit.
 */
export interface ConnectionsRepository {
  /**
   * The person behind the connection watches `farm` for LIVE_AUTHORIZED_SECONDS from `now` (a
   * connection watches one farm: the previous one is dropped). A renewal by the same person of the
   * same farm only moves the subscription's `until`: one conditional write, the other records stand.
   */
  watch(connectionId: string, userId: string, farm: string, now: Date): Promise<void>;
  /** The connection and its farm's item. */
  removeConnection(connectionId: string): Promise<void>;
  /** The farm's connections whose subscription is current. */
  listFarmConnections(farm: string): Promise<string[]>;
}

/**
 * What the live socket asks Cognito at each subscription, rather than trusting the token: a token
 * keeps its groups for an hour after a role change, and stays well-formed after a sign-out everywhere.
 */
export interface LiveAuthority {
  /** The person's groups now; undefined when the account is gone or disabled. */
  currentGroups(username: string): Promise<readonly string[] | undefined>;
  /** False when Cognito refuses the access token: revoked by a sign-out everywhere, expired, or not an access token. */
  sessionActive(accessToken: string): Promise<boolean>;
}

/**
 * Posts a message to a WebSocket connection through API Gateway's management API (the
 * @connections endpoint of the live-updates API; locally the stand-in's, which speaks the same).
 */
export interface LiveSender {
  /** False when the connection is gone (closed without $disconnect reaching us yet). */
  post(connectionId: string, message: unknown): Promise<boolean>;
}
