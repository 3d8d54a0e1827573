import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/free-port';
import { ensureTables, startDynamo, type DynamoStandIn } from './dynamodb';

/** TransactWriteItems on the stand-in: all or none, and the targeted write fault. */
let dynamo: DynamoStandIn;
let doc: DynamoDBDocumentClient;
let table: string;

beforeAll(async () => {
  dynamo = await startDynamo(await freePort());
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  table = (await ensureTables(client, 'tx')).FARMS_TABLE as string;
  doc = DynamoDBDocumentClient.from(client);
});
afterAll(async () => dynamo?.stop());

const get = async (pk: string) => (await doc.send(new GetCommand({ TableName: table, Key: { pk, sk: 'X' }, ConsistentRead: true }))).Item;

describe('TransactWriteItems on the dynalite stand-in', () => {
  it('applies every write when every condition holds', async () => {
    await doc.send(new PutCommand({ TableName: table, Item: { pk: 'A#1', sk: 'X', v: 1 } }));
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: table, Key: { pk: 'A#1', sk: 'X' }, UpdateExpression: 'SET v = :n', ConditionExpression: 'v = :o', ExpressionAttributeValues: { ':n': 2, ':o': 1 } } },
          { Put: { TableName: table, Item: { pk: 'AUDIT#1', sk: 'X', what: 'v 1 → 2' }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    expect((await get('A#1'))?.v).toBe(2);
    expect((await get('AUDIT#1'))?.what).toBe('v 1 → 2');
  });

  it('writes nothing when a later condition fails, and names it in the reasons', async () => {
    await doc.send(new PutCommand({ TableName: table, Item: { pk: 'B#1', sk: 'X', v: 1 } }));
    await doc.send(new PutCommand({ TableName: table, Item: { pk: 'B#3', sk: 'X', v: 1 } }));
    const failed = await doc
      .send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: table, Key: { pk: 'B#1', sk: 'X' }, UpdateExpression: 'SET v = :n', ExpressionAttributeValues: { ':n': 5 } } },
            { Put: { TableName: table, Item: { pk: 'B#2', sk: 'X', v: 5 } } },
            { ConditionCheck: { TableName: table, Key: { pk: 'B#3', sk: 'X' }, ConditionExpression: 'v = :two', ExpressionAttributeValues: { ':two': 2 } } },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TransactionCanceledException);
    expect((failed as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'None', 'ConditionalCheckFailed']);
    expect((await get('B#1'))?.v).toBe(1);
    expect(await get('B#2')).toBeUndefined();
    expect((await get('B#3'))?.v).toBe(1);
  });

  it('refuses two writes to one item', async () => {
    const failed = await doc
      .send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: table, Item: { pk: 'C#1', sk: 'X' } } }, { Delete: { TableName: table, Key: { pk: 'C#1', sk: 'X' } } }] }))
      .catch((e: unknown) => e);
    expect((failed as Error).name).toBe('ValidationException');
    expect(await get('C#1')).toBeUndefined();
  });

  it('cancels a transaction naming an item whose writes fail, and refuses a single write to it', async () => {
    await dynamo.failWritesTo(['AUDIT#']);
    try {
      const failed = await doc
        .send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: table, Item: { pk: 'D#1', sk: 'X' } } }, { Put: { TableName: table, Item: { pk: 'AUDIT#2', sk: 'X' } } }] }))
        .catch((e: unknown) => e);
      expect((failed as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'ThrottlingError']);
      expect(await get('D#1')).toBeUndefined();
      await expect(doc.send(new PutCommand({ TableName: table, Item: { pk: 'AUDIT#3', sk: 'X' } }))).rejects.toThrow();
      await doc.send(new PutCommand({ TableName: table, Item: { pk: 'D#2', sk: 'X' } }));
      expect(await get('D#2')).toBeDefined();
    } finally {
      await dynamo.failWritesTo([]);
    }
  });

  it('lets no read see half of a transaction', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ Put: { TableName: table, Item: { pk: `E#${i}`, sk: 'X', round: 1 } } }));
    const writing = doc.send(new TransactWriteCommand({ TransactItems: items }));
    const seen = await Promise.all(Array.from({ length: 40 }, (_, i) => get(`E#${i}`)));
    await writing;
    const rounds = new Set(seen.map((s) => s?.round ?? 0));
    expect(rounds.size).toBe(1);
  });
});
