import { PutCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { userSchema, type User } from '../../../../shared/entities/user';
import { farmsKeys as k } from '../keys';
import { batchGetInOrder, getItem, queryGsi1, unlessConditionFails, type Item } from '../query';
import { strip } from './stored';
import type { UserStore } from '../../../ports/farms';

const parseUser = (i: Item | undefined) => (i ? userSchema.parse(strip(i)) : undefined);

export const userStore = (doc: DynamoDBDocumentClient, table: string): UserStore => {
  /** One conditional UpdateItem of an existing profile, answering it as stored (undefined: no such user). */
  const updateProfile = (userId: string, update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>): Promise<User | undefined> =>
    unlessConditionFails(
      async () => {
        const res = await doc.send(new UpdateCommand({ TableName: table, Key: k.userProfile(userId), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_NEW', ...update }));
        return parseUser(res.Attributes);
      },
      () => undefined,
    );

  return {
    getUser: async (userId) => parseUser(await getItem(doc, table, k.userProfile(userId))),

    async findUserByEmail(email) {
      const [item] = await queryGsi1(doc, table, k.userByEmail(email).gsi1pk);
      return item ? parseUser(await getItem(doc, table, { pk: String(item.pk), sk: 'PROFILE' })) : undefined;
    },
    async findUsersByEmail(email) {
      const items = await queryGsi1(doc, table, k.userByEmail(email).gsi1pk);
      const users = await Promise.all(items.map(async (item) => parseUser(await getItem(doc, table, { pk: String(item.pk), sk: 'PROFILE' }))));
      return users.filter((u): u is User => u !== undefined);
    },

    async putUser(user, options) {
      await unlessConditionFails(
        async () => {
          await doc.send(
            new PutCommand({
              TableName: table,
              Item: { ...k.userProfile(user._id), ...k.userByEmail(user.email), kind: 'USER', ...user },
              ...(options?.onlyIfNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
            }),
          );
          // The listing entry is its own item: one GSI key per item, and the profile keeps the email index.
          await doc.send(new PutCommand({ TableName: table, Item: { pk: `USER#${user._id}`, sk: 'LISTING', gsi1pk: k.allOf('USER'), gsi1sk: user.email } }));
        },
        // A profile is there already (onlyIfNew): it stays as it is.
        () => undefined,
      );
    },

    async listUsers() {
      // Fleet listings use a second sparse index key on the same GSI: gsi1pk ALL#<kind>.
      const entries = await queryGsi1(doc, table, k.allOf('USER'));
      const users = await batchGetInOrder(doc, table, entries.map((e) => ({ pk: String(e.pk), sk: 'PROFILE' })));
      return users.map((u) => userSchema.parse(strip(u)));
    },

    async updateUser(userId, change) {
      const entries = Object.entries(change).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return parseUser(await getItem(doc, table, k.userProfile(userId)));
      return updateProfile(userId, {
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([f], i) => [`#f${i}`, f])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
      });
    },

    setHerd: (userId, herd) =>
      updateProfile(userId, {
        UpdateExpression: herd.enabled ? 'SET is_herd_enabled = :e, token_id = :t' : 'SET is_herd_enabled = :e REMOVE token_id',
        ExpressionAttributeValues: herd.enabled ? { ':e': 1, ':t': herd.tokenId } : { ':e': 0 },
      }),
  };
};
