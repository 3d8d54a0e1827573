import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { activityStore } from './readings/activities';
import { dayBuckets } from './readings/day-buckets';
import { herdNotes } from './readings/herd-notes';
import { partialBuckets } from './readings/partial-buckets';
import { rawArchive } from './readings/raw-archive';
import { dayPartitions, readingsStore } from './readings/readings';
import { rejectedMessages } from './readings/rejected';
import { replaySnapshots } from './readings/snapshots';
import type { ReadingsRepository } from '../../ports/readings';

/**
 * The Readings table's stores in one (the wide port the wiring hands out): one store per key
 * family (lambdas/adapters/dynamodb/readings/). The bucket reads get the day partitions they read
 * through, rather than sharing state with that store.
 */
export const dynamoReadingsRepository = (doc: DynamoDBDocumentClient, table: string): ReadingsRepository => ({
  ...readingsStore(doc, table),
  ...rawArchive(doc, table),
  ...dayBuckets(doc, table, { days: dayPartitions(doc, table) }),
  ...partialBuckets(doc, table),
  ...replaySnapshots(doc, table),
  ...activityStore(doc, table),
  ...herdNotes(doc, table),
  ...rejectedMessages(doc, table),
});
