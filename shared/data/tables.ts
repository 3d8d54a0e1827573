/**
 * The DynamoDB tables, described once. The CDK data construct and the local stack both create
 * tables from this list, so AWS and the local stand-in can never drift apart.
 * Key design: docs/architecture.md, "Data".
 */
import { DEVICE_CONFIG_FIELDS } from '../entities/device';

export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Only these attributes besides the keys are copied into the index (INCLUDE); else every attribute (ALL). */
  readonly nonKeyAttributes?: readonly string[];
}

export interface TableDefinition {
  /** Stable logical name: the CDK construct id and the local table name suffix. */
  readonly id: 'Farms' | 'Readings' | 'Alerts' | 'Connections';
  /** The environment variable that carries the physical table name into a Lambda. */
  readonly envVar: 'FARMS_TABLE' | 'READINGS_TABLE' | 'ALERTS_TABLE' | 'CONNECTIONS_TABLE';
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry; AWS deletes expired items, locally a sweep does. */
  readonly ttlAttribute?: string;
}

const pk: KeyAttribute = { name: 'pk', type: 'S' };
const sk: KeyAttribute = { name: 'sk', type: 'S' };

export const GSI1 = 'gsi1';
/**
 * The fleet index of the Farms table: every device item under gsi2pk ALL#DEVICE, sorted by name,
 * with the device's fields and live values but not the ingest's state, so the device list is one
 * query (operator §2; 2,000 devices in well under 300 ms) instead of a listing and a BatchGet per 100.
 */
export const GSI2 = 'gsi2';
const FLEET_INDEX_ATTRIBUTES = ['_id', ...DEVICE_CONFIG_FIELDS, 'last_updated', 'seen_at'] as const;
/**
 * The seen index of the Farms table: every active device under gsi3pk ACTIVE#DEVICE, sorted by its
 * last message (gsi3sk), so the operators' overview counts reporting and silent units with two
 * key-range queries of small items (decision 055).
 */
export const GSI3 = 'gsi3';
const SEEN_INDEX_ATTRIBUTES = ['_id', 'name', 'farm_id', 'seen_at'] as const;

export const TABLES: readonly TableDefinition[] = [
  {
    // Everything owned by a farm or a user: profiles, farm links, farms, vats and devices,
    // thresholds, equipment, pickups, organizations, enquiries, install logs, Watchman.
    id: 'Farms',
    envVar: 'FARMS_TABLE',
    partitionKey: pk,
    sortKey: sk,
    globalSecondaryIndexes: [
      { indexName: GSI1, partitionKey: { name: 'gsi1pk', type: 'S' }, sortKey: { name: 'gsi1sk', type: 'S' } },
      { indexName: GSI2, partitionKey: { name: 'gsi2pk', type: 'S' }, sortKey: { name: 'gsi2sk', type: 'S' }, nonKeyAttributes: FLEET_INDEX_ATTRIBUTES },
      { indexName: GSI3, partitionKey: { name: 'gsi3pk', type: 'S' }, sortKey: { name: 'gsi3sk', type: 'S' }, nonKeyAttributes: SEEN_INDEX_ATTRIBUTES },
    ],
    // Only Watchman's history (runs, closed cases) carries it.
    ttlAttribute: 'expires_at',
  },
  {
    // Time series per device, bucketed by device and UTC day; raw archive (30-day TTL);
    // detected activities; rejected messages.
    id: 'Readings',
    envVar: 'READINGS_TABLE',
    partitionKey: pk,
    sortKey: sk,
    globalSecondaryIndexes: [],
    ttlAttribute: 'expires_at',
  },
  {
    // Notifications per farm, deduplicated while a condition persists.
    id: 'Alerts',
    envVar: 'ALERTS_TABLE',
    partitionKey: pk,
    sortKey: sk,
    globalSecondaryIndexes: [
      { indexName: GSI1, partitionKey: { name: 'gsi1pk', type: 'S' }, sortKey: { name: 'gsi1sk', type: 'S' } },
    ],
    ttlAttribute: 'expires_at',
  },
  {
    // The live-updates WebSocket's connections: who is connected (CONN#<id>) and which
    // farm each watches (LIVE#<farm>, one item per connection); gone after API Gateway's 2 hours.
    id: 'Connections',
    envVar: 'CONNECTIONS_TABLE',
    partitionKey: pk,
    sortKey: sk,
    globalSecondaryIndexes: [],
    ttlAttribute: 'expires_at',
  },
];
