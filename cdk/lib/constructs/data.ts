import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableV2, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLES, type KeyAttribute, type TableDefinition } from '../../../shared/data/tables.js';

/** A deployed table together with the definition it was built from (its env var, its indexes). */
export interface DataTable {
  readonly definition: TableDefinition;
  readonly table: TableV2;
}

interface DataProps {
  /**
   * What happens to the tables when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

const attribute = (key: KeyAttribute): Attribute => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The DynamoDB tables, one per entry of `TABLES` in shared/data/tables.ts: the local stack builds
 * its dynalite tables from the same list, so the two cannot drift. On-demand billing (traffic is
 * spiky: telemetry bursts, dashboards at milking time) and point-in-time recovery on every table.
 */
export class Data extends Construct {
  readonly tables: readonly DataTable[];

  constructor(scope: Construct, id: string, props: DataProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    this.tables = TABLES.map((definition) => ({
      definition,
      table: new TableV2(this, definition.id, {
        partitionKey: attribute(definition.partitionKey),
        sortKey: attribute(definition.sortKey),
        billing: Billing.onDemand(),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        globalSecondaryIndexes: definition.globalSecondaryIndexes.map((index) => ({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          sortKey: index.sortKey ? attribute(index.sortKey) : undefined,
          ...(index.nonKeyAttributes ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.nonKeyAttributes] } : {}),
        })),
        timeToLiveAttribute: definition.ttlAttribute,
        removalPolicy,
        // A retained table should also refuse a DeleteTable from the console or an SDK script.
        deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      }),
    }));
  }

  /** The table built from the definition with this id. */
  table(id: TableDefinition['id']): DataTable {
    const found = this.tables.find((t) => t.definition.id === id);
    if (!found) throw new Error(`No table ${id} in TABLES`);
    return found;
  }
}
