/**
 * The DynamoDB tables, described once. The CDK data construct and the local stack both create
 * tables from this list, so AWS and the local stand-in can never drift apart.
 * Key design: docs/architecture.md, "Data".
 */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Stable logical name: the CDK construct id and the local table name suffix. */
  readonly id: 'Farms' | 'Readings' | 'Alerts';
  /** The environment variable that carries the physical table name into a Lambda. */
  readonly envVar: 'FARMS_TABLE' | 'READINGS_TABLE' | 'ALERTS_TABLE';
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry; AWS deletes expired items, locally a sweep does. */
  readonly ttlAttribute?: string;
}

const pk: KeyAttribute = { name: 'pk', type: 'S' };
const sk: KeyAttribute = { name: 'sk', type: 'S' };

export const GSI1 = 'gsi1';

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
    ],
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
];
