/**
 * TransactWriteItems for the dynalite process (dynalite answers UnknownOperationException to it).
 * DynamoDB applies a transaction's writes all or none and no other request sees part of one; this
 * gives the local stack the same to the extent the tests and the product rely on:
 *  - isolation: a transaction runs alone (every other request waits for it and it waits for the
 *    requests already running), so no read sees half of one;
 *  - all or none: its writes are applied one by one through dynalite's own single-item writes,
 *    conditions included, and when one is refused the ones before it are put back as they were
 *    before the transaction (the images read under the same exclusive hold);
 *  - the answer: TransactionCanceledException with one reason per item ('None' for the others),
 *    or ValidationException for a request DynamoDB refuses outright (more than 100 items, two
 *    writes to one item).
 * What it does not do: survive the process being killed half-way through (DynamoDB's is durable),
 * honour ClientRequestToken (idempotent retries within 10 minutes) or ReturnValuesOnConditionCheckFailure.
 */
import {
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type AttributeValue,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';

/** The header that lets the transaction's own single-item requests past the hold it has taken. */
export const INTERNAL_HEADER = 'x-vatman-transaction';

type Item = Record<string, AttributeValue>;
type Answer = { status: number; body: unknown };

const MAX_ITEMS = 100;

const error = (type: string, message: string, extra: Record<string, unknown> = {}): Answer => ({
  status: 400,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message, Message: message, ...extra },
});

/** A readers-writer hold: ordinary requests share it, a transaction has it alone. */
export const requestGate = () => {
  let running = 0;
  let exclusive: Promise<void> | undefined;
  const drained: (() => void)[] = [];
  const done = () => {
    running -= 1;
    if (running === 0) for (const wake of drained.splice(0)) wake();
  };
  return {
    /** Waits while a transaction runs; the returned function ends the request's share. */
    async shared(): Promise<() => void> {
      while (exclusive) await exclusive;
      running += 1;
      return done;
    },
    /** Runs `work` once every running request is done, holding off new ones until it ends. */
    async alone<T>(work: () => Promise<T>): Promise<T> {
      while (exclusive) await exclusive;
      let release = () => {};
      exclusive = new Promise<void>((resolve) => (release = resolve));
      try {
        if (running > 0) await new Promise<void>((resolve) => drained.push(resolve));
        return await work();
      } finally {
        exclusive = undefined;
        release();
      }
    },
  };
};

/** The transaction runner over the process's own endpoint (its requests carry INTERNAL_HEADER). */
export const transactionRunner = (endpoint: string) => {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers[INTERNAL_HEADER] = '1';
      return next(args);
    },
    { step: 'build', name: 'transactionInternalHeader' },
  );
  const keyNames = new Map<string, string[]>();
  const keyOf = async (table: string, item: Item): Promise<Item> => {
    let names = keyNames.get(table);
    if (!names) {
      const described = await client.send(new DescribeTableCommand({ TableName: table }));
      names = (described.Table?.KeySchema ?? []).map((k) => k.AttributeName as string);
      keyNames.set(table, names);
    }
    return Object.fromEntries(names.map((n) => [n, item[n] as AttributeValue]));
  };

  const targetOf = async (op: TransactWriteItem): Promise<{ table: string; key: Item }> => {
    if (op.Put) return { table: op.Put.TableName as string, key: await keyOf(op.Put.TableName as string, op.Put.Item ?? {}) };
    const part = op.Update ?? op.Delete ?? op.ConditionCheck;
    if (!part) throw new Error('empty');
    return { table: part.TableName as string, key: part.Key ?? {} };
  };

  const restore = async (table: string, key: Item, before: Item | undefined) => {
    if (before) await client.send(new PutItemCommand({ TableName: table, Item: before }));
    else await client.send(new DeleteItemCommand({ TableName: table, Key: key }));
  };

  const apply = async (op: TransactWriteItem, before: Item | undefined, key: Item) => {
    if (op.Put) await client.send(new PutItemCommand(op.Put));
    else if (op.Update) await client.send(new UpdateItemCommand(op.Update));
    else if (op.Delete) await client.send(new DeleteItemCommand(op.Delete));
    else if (op.ConditionCheck) {
      // The condition is judged by dynalite's own put of the item as it is (or of its key alone), undone below.
      const { TableName, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues } = op.ConditionCheck;
      await client.send(new PutItemCommand({ TableName, Item: before ?? key, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues }));
    }
  };

  return async (body: { TransactItems?: TransactWriteItem[] }): Promise<Answer> => {
    const ops = body.TransactItems ?? [];
    if (ops.length === 0 || ops.length > MAX_ITEMS) {
      return error('ValidationException', `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_ITEMS}`);
    }
    if (ops.some((op) => [op.Put, op.Update, op.Delete, op.ConditionCheck].filter(Boolean).length !== 1)) {
      return error('ValidationException', 'TransactItems can only contain one of Check, Put, Update or Delete');
    }
    const targets = await Promise.all(ops.map(targetOf));
    const ids = targets.map((t) => `${t.table}\u0000${JSON.stringify(t.key)}`);
    if (new Set(ids).size !== ids.length) return error('ValidationException', 'Transaction request cannot include multiple operations on one item');
    const befores = await Promise.all(targets.map(async (t) => (await client.send(new GetItemCommand({ TableName: t.table, Key: t.key, ConsistentRead: true }))).Item));

    const applied: number[] = [];
    const undo = async () => {
      for (const i of applied.reverse()) await restore(targets[i]!.table, targets[i]!.key, befores[i]);
    };
    for (let i = 0; i < ops.length; i += 1) {
      try {
        await apply(ops[i]!, befores[i], targets[i]!.key);
        applied.push(i);
      } catch (err) {
        await undo();
        const name = err instanceof Error ? err.name : 'InternalServerError';
        const message = err instanceof Error ? err.message : String(err);
        if (name !== 'ConditionalCheckFailedException') return error(name, message);
        const reasons = ops.map((_, n) => (n === i ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' }));
        return error('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`, {
          CancellationReasons: reasons,
        });
      }
    }
    // A condition check writes nothing: the item goes back as it was.
    for (let i = 0; i < ops.length; i += 1) if (ops[i]!.ConditionCheck) await restore(targets[i]!.table, targets[i]!.key, befores[i]);
    return { status: 200, body: {} };
  };
};
