import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** Every item a Query matches (or the first `max`), following LastEvaluatedKey page by page. */
export const queryAll = async (
  doc: DynamoDBDocumentClient,
  table: string,
  input: Omit<QueryCommandInput, 'TableName'>,
  max = Number.POSITIVE_INFINITY,
): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new QueryCommand({ TableName: table, ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < max);
  return items.slice(0, max);
};

/** A conditional write that lost its condition (someone else's write is there). */
export const isConditionFailure = (err: unknown): boolean => (err as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
