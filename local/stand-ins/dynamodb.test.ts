import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GSI2, TABLES } from '../../shared/data/tables';
import { freePort } from '../../test/support/free-port';
import { createTableInput, ensureTables, localTableName, startDynamo, type DynamoStandIn } from './dynamodb';

/** A data folder from an older build: the Farms table without the fleet index (gsi2). */
let dynamo: DynamoStandIn;
let client: DynamoDBClient;
const PREFIX = 'older';

beforeAll(async () => {
  dynamo = await startDynamo(await freePort());
  client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const farms = TABLES.find((t) => t.id === 'Farms');
  if (!farms) throw new Error('no Farms table');
  const older = { ...farms, globalSecondaryIndexes: farms.globalSecondaryIndexes.filter((g) => g.indexName === 'gsi1') };
  const name = localTableName(farms, PREFIX);
  await client.send(new CreateTableCommand(createTableInput(older, name)));
  await client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: 'FARM#f1' }, sk: { S: 'FARM' }, fonterra_id: { S: '12345' } } }));
  await client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: 'DEVICE#d1' }, sk: { S: 'DEVICE' }, _id: { S: 'd1' }, name: { S: 'vm-d1' }, status: { N: '1' }, seen_at: { S: '2026-01-02T03:04:05.000Z' }, ingest: { S: '{"big":"state"}' } } }));
  await client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: 'DEVICE#d2' }, sk: { S: 'DEVICE' }, _id: { S: 'd2' }, name: { S: 'vm-d2' }, status: { N: '2' } } }));
});
afterAll(async () => {
  client?.destroy();
  await dynamo?.stop();
});

describe('ensureTables on an older data folder', () => {
  it('adds the missing fleet and seen indexes and gives the existing devices their keys, without the ingest state', async () => {
    const names = await ensureTables(client, PREFIX);
    const name = names.FARMS_TABLE as string;
    const described = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(described.Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual(['gsi1', 'gsi2', 'gsi3']);
    const found = await client.send(new QueryCommand({ TableName: name, IndexName: GSI2, KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': { S: 'ALL#DEVICE' } } }));
    expect(found.Items?.map((i) => i.name?.S)).toEqual(['vm-d1', 'vm-d2']);
    // The seen index: the active device only, by its last message.
    const seen = await client.send(new QueryCommand({ TableName: name, IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :p', ExpressionAttributeValues: { ':p': { S: 'ACTIVE#DEVICE' } } }));
    expect(seen.Items?.map((i) => [i.name?.S, i.gsi3sk?.S])).toEqual([['vm-d1', '2026-01-02T03:04:05.000Z']]);
    expect(found.Items?.[0]?.ingest).toBeUndefined();
    const farm = await client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'FARM#f1' }, sk: { S: 'FARM' } } }));
    expect(farm.Item?.fonterra_id?.S).toBe('12345');
    const device = await client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'DEVICE#d1' }, sk: { S: 'DEVICE' } } }));
    expect(device.Item?.ingest?.S).toBe('{"big":"state"}');
  });
});

describe('the write-throttling switch (fault injection)', () => {
  it('refuses about that share of writes with ProvisionedThroughputExceededException, never a read, and stops when set to 0', async () => {
    const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
    const TableName = localTableName(TABLES.find((t) => t.id === 'Farms')!, PREFIX);
    const put = (i: number) => raw.send(new PutItemCommand({ TableName, Item: { pk: { S: `T#${i}` }, sk: { S: 'X' } } })).then(() => 'ok', (e: Error) => e.name);
    await dynamo.throttleWrites(0.3);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => put(i)));
    const refused = results.filter((r) => r === 'ProvisionedThroughputExceededException').length;
    expect(results.every((r) => r === 'ok' || r === 'ProvisionedThroughputExceededException')).toBe(true);
    expect(refused).toBeGreaterThan(30);
    expect(refused).toBeLessThan(100);
    const reads = await Promise.all(Array.from({ length: 50 }, () => raw.send(new GetItemCommand({ TableName, Key: { pk: { S: 'FARM#f1' }, sk: { S: 'FARM' } } })).then(() => 'ok')));
    expect(reads.every((r) => r === 'ok')).toBe(true);
    await dynamo.throttleWrites(0);
    expect((await Promise.all(Array.from({ length: 50 }, (_, i) => put(i)))).every((r) => r === 'ok')).toBe(true);
    raw.destroy();
  });
});

describe('idle connections', () => {
  it("keeps a kept-alive connection open past Node's 5 s default, so a call sent on it as the server drops it cannot fail with 'socket hang up'", async () => {
    const { Agent, request } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = () =>
      new Promise<{ status: number; socket: import('node:net').Socket }>((resolve, reject) => {
        const req = request(`${dynamo.endpoint}/`, { method: 'POST', agent, headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables', authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket as import('node:net').Socket }));
        });
        req.on('error', reject);
        req.end('{}');
      });
    const first = await call();
    let closed = false;
    first.socket.once('close', () => (closed = true));
    await new Promise((r) => setTimeout(r, 6_500));
    expect(closed).toBe(false);
    const second = await call();
    expect(second.socket).toBe(first.socket);
    agent.destroy();
  }, 30_000);
});
