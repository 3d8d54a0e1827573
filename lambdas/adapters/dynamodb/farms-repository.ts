import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type UpdateCommandInput,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { GSI1, GSI2 } from '../../../shared/data/tables';
import { DEVICE_CONFIG_FIELDS, deviceSchema } from '../../../shared/entities/device';
import { farmSchema, knodeAssetSchema } from '../../../shared/entities/farm';
import { userSchema, type User } from '../../../shared/entities/user';
import { imeiOfUnitThing } from '../../../shared/entities/install';
import { parseUnitVatSender } from '../../../shared/telemetry/device-message';
import { farmsKeys as k } from './keys';
import { isConditionFailure, queryAll as queryItems } from './query';
import type { FarmRepository } from '../../ports/farms';


const strip = <T extends Record<string, unknown>>(item: T): Record<string, unknown> => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, gsi2pk: _g3, gsi2sk: _g4, kind: _k, ingest: _i, ingest_n: _in, ingest_v: _iv, ...rest } = item;
  return rest;
};

export const dynamoFarmRepository = (doc: DynamoDBDocumentClient, table: string): FarmRepository => {
  const queryAll = (input: Omit<QueryCommandInput, 'TableName'>) => queryItems(doc, table, input);
  const get = async (key: { pk: string; sk: string }) =>
    (await doc.send(new GetCommand({ TableName: table, Key: key }))).Item as Record<string, unknown> | undefined;
  const byGsi1 = (gsi1pk: string, prefix?: string) =>
    queryAll({
      IndexName: GSI1,
      KeyConditionExpression: prefix ? 'gsi1pk = :p AND begins_with(gsi1sk, :s)' : 'gsi1pk = :p',
      ExpressionAttributeValues: prefix ? { ':p': gsi1pk, ':s': prefix } : { ':p': gsi1pk },
    });
  // Fleet listings use a second sparse index key on the same GSI: gsi1pk ALL#<kind>.
  const all = async (kind: 'USER' | 'FARM' | 'DEVICE') => byGsi1(k.allOf(kind));
  /**
   * Items by key, 100 keys a BatchGetItem, the chunks in parallel (a fleet of 2,000 devices is 20
   * requests at once, not 2,000 GetItems); unprocessed keys are asked for again. Missing keys are
   * left out; the order is the keys' order.
   */
  const batchGet = async (keys: readonly { pk: string; sk: string }[]): Promise<Record<string, unknown>[]> => {
    const found = new Map<string, Record<string, unknown>>();
    const chunks = Array.from({ length: Math.ceil(keys.length / 100) }, (_, i) => keys.slice(i * 100, i * 100 + 100));
    await Promise.all(
      chunks.map(async (chunk) => {
        let pending: Record<string, unknown>[] | undefined = [...chunk];
        while (pending && pending.length > 0) {
          const res: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
          for (const item of res.Responses?.[table] ?? []) found.set(`${String(item.pk)}|${String(item.sk)}`, item);
          pending = res.UnprocessedKeys?.[table]?.Keys;
        }
      }),
    );
    return keys.flatMap((key) => {
      const item = found.get(`${key.pk}|${key.sk}`);
      return item ? [item] : [];
    });
  };

  const parseUser = (i: Record<string, unknown> | undefined) => (i ? userSchema.parse(strip(i)) : undefined);

  /** One conditional UpdateItem of an existing profile, answering it as stored (undefined: no such user). */
  const updateProfile = async (
    userId: string,
    update: Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
  ): Promise<User | undefined> => {
    try {
      const res = await doc.send(
        new UpdateCommand({ TableName: table, Key: k.userProfile(userId), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_NEW', ...update }),
      );
      return parseUser(res.Attributes);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  };
  const parseFarm = (i: Record<string, unknown> | undefined) => (i ? farmSchema.parse(strip(i)) : undefined);
  const parseDevice = (i: Record<string, unknown> | undefined) => (i ? deviceSchema.parse(strip(i)) : undefined);

  return {
    getUser: async (userId) => parseUser(await get(k.userProfile(userId))),
    async findUserByEmail(email) {
      const [item] = await byGsi1(k.userByEmail(email).gsi1pk);
      return item ? parseUser(await get({ pk: String(item.pk), sk: 'PROFILE' })) : undefined;
    },
    async findUsersByEmail(email) {
      const items = await byGsi1(k.userByEmail(email).gsi1pk);
      const users = await Promise.all(items.map(async (item) => parseUser(await get({ pk: String(item.pk), sk: 'PROFILE' }))));
      return users.filter((u): u is User => u !== undefined);
    },
    async putUser(user, options) {
      try {
        await doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.userProfile(user._id), ...k.userByEmail(user.email), kind: 'USER', ...user },
            ...(options?.onlyIfNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
          }),
        );
        // The listing entry is its own item: one GSI key per item, and the profile keeps the email index.
        await doc.send(
          new PutCommand({
            TableName: table,
            Item: { pk: `USER#${user._id}`, sk: 'LISTING', gsi1pk: k.allOf('USER'), gsi1sk: user.email },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) return;
        throw err;
      }
    },
    async listUsers() {
      const entries = await all('USER');
      const users = await batchGet(entries.map((e) => ({ pk: String(e.pk), sk: 'PROFILE' })));
      return users.map((u) => userSchema.parse(strip(u)));
    },
    async updateUser(userId, change) {
      const entries = Object.entries(change).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return parseUser(await get(k.userProfile(userId)));
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
    async linkUserToFarm(userId, farmId) {
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.farmLink(userId, farmId), ...k.farmLinkIndex(userId, farmId), kind: 'LINK', farm_id: farmId, user_id: userId },
        }),
      );
    },
    async listFarmIdsOfUser(userId) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':p': `USER#${userId}`, ':s': 'FARM#' },
      });
      return items.map((i) => String(i.farm_id));
    },
    isLinked: async (userId, farmId) => (await get(k.farmLink(userId, farmId))) !== undefined,
    getFarm: async (farmId) => parseFarm(await get(k.farm(farmId))),
    async getFarms(farmIds) {
      const items = await batchGet([...new Set(farmIds)].map((id) => k.farm(id)));
      return items.map((i) => farmSchema.parse(strip(i)));
    },
    async findFarmBySupplyNumber(fonterraId) {
      const [item] = await byGsi1(k.farmBySupplyNumber(fonterraId).gsi1pk);
      return parseFarm(item);
    },
    async putFarm(farm) {
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...k.farm(farm._id), ...k.farmBySupplyNumber(farm.fonterra_id), kind: 'FARM', ...farm },
        }),
      );
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { pk: `FARM#${farm._id}`, sk: 'LISTING', gsi1pk: k.allOf('FARM'), gsi1sk: farm.fonterra_id },
        }),
      );
    },
    async setFarmFlag(farmId, flag, value, byOperator = false) {
      const hold = byOperator && flag === 'fonterra_api_status';
      try {
        const res = await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: k.farm(farmId),
            UpdateExpression: hold ? 'SET #f = :v, fonterra_sync_held = :held' : 'SET #f = :v',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#f': flag },
            ExpressionAttributeValues: { ':v': value, ...(hold ? { ':held': !value } : {}) },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return parseFarm(res.Attributes);
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
    async listFarms() {
      const entries = await all('FARM');
      return this.getFarms(entries.map((e) => String(e.pk).slice('FARM#'.length)));
    },
    getDevice: async (deviceId) => parseDevice(await get(k.device(deviceId))),
    async putDevice(device) {
      // An update, not a put: the device's live values and the ingest's state stay as they are.
      const fields = DEVICE_CONFIG_FIELDS.filter((f) => device[f] !== undefined);
      const index = k.deviceByFarm(device.farm_id, device.vat_number, device._id);
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: k.device(device._id),
          UpdateExpression: `SET ${['_id', 'kind', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', ...fields].map((f) => `#${f} = :${f}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(['_id', 'kind', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', ...fields].map((f) => [`#${f}`, f])),
          ExpressionAttributeValues: {
            ':_id': device._id,
            ':kind': 'DEVICE',
            ':gsi1pk': index.gsi1pk,
            ':gsi1sk': index.gsi1sk,
            ':gsi2pk': k.fleet,
            ':gsi2sk': device.name,
            ...Object.fromEntries(fields.map((f) => [`:${f}`, device[f]])),
          },
        }),
      );
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.thing(device.name), kind: 'THING', owner: 'device', device_id: device._id } }));
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { pk: `DEVICE#${device._id}`, sk: 'LISTING', gsi1pk: k.allOf('DEVICE'), gsi1sk: device.name },
        }),
      );
    },
    async deleteFarm(farmId) {
      for (const Key of [k.farm(farmId), { pk: `FARM#${farmId}`, sk: 'LISTING' }]) await doc.send(new DeleteCommand({ TableName: table, Key }));
    },
    async deleteDevice(device) {
      for (const Key of [k.device(device._id), k.thing(device.name), { pk: `DEVICE#${device._id}`, sk: 'LISTING' }]) await doc.send(new DeleteCommand({ TableName: table, Key }));
    },
    async listDevicesOfFarm(farmId) {
      const items = await byGsi1(`FARM#${farmId}`, 'VAT#');
      return items.map((i) => deviceSchema.parse(strip(i)));
    },
    async listDevices() {
      // The fleet index holds every device's fields and live values: one query, by name.
      const items = await queryAll({ IndexName: GSI2, KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': k.fleet } });
      return items.map((d) => deviceSchema.parse(strip(d)));
    },
    async putKnodeAsset(farmId, asset) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.knodeAsset(farmId, asset.asset_name), kind: 'KNODE', ...asset } }));
    },
    async updateKnodeAsset(farmId, asset) {
      try {
        await doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...k.knodeAsset(farmId, asset.asset_name), kind: 'KNODE', ...asset },
            ConditionExpression: 'attribute_not_exists(published_at) OR published_at < :t',
            ExpressionAttributeValues: { ':t': asset.published_at },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },
    async putKnodeGateway(thingName, farmId) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.thing(thingName), kind: 'THING', owner: 'knode', farm_id: farmId } }));
    },
    async resolveThing(thingName) {
      // A unit's vat (dts/<unit>/<vat>/telemetry, issue 20): the unit's farm's vat of that number.
      const unitVat = parseUnitVatSender(thingName);
      if (unitVat) {
        const imei = imeiOfUnitThing(unitVat.unit);
        const unit = imei ? await get(k.unitId(imei)) : undefined;
        if (!unit) return undefined;
        const vats = (await byGsi1(`FARM#${String(unit.farm_id)}`, `VAT#${unitVat.vat}#`)).map((i) => deviceSchema.parse(strip(i)));
        // The active device of that vat; a retired one is still the sender (the ingest refuses it as retired).
        const device = vats.find((d) => d.status === 1) ?? vats[0];
        return device ? { kind: 'device', device_id: device._id } : undefined;
      }
      const item = await get(k.thing(thingName));
      if (!item) return undefined;
      return item.owner === 'knode' ? { kind: 'knode', farm_id: String(item.farm_id) } : { kind: 'device', device_id: String(item.device_id) };
    },
    async getDeviceForIngest(deviceId) {
      const item = await get(k.device(deviceId));
      if (!item) return undefined;
      const ingest = typeof item.ingest === 'string' ? { n: Number(item.ingest_n), v: Number(item.ingest_v ?? item.ingest_n), state: JSON.parse(item.ingest) as unknown } : undefined;
      return { device: deviceSchema.parse(strip(item)), ingest };
    },
    async commitIngest(deviceId, ingest, expectedV, live) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: k.device(deviceId),
            UpdateExpression: `SET ingest = :s, ingest_n = :n, ingest_v = :v${live ? ', last_updated = :lu, seen_at = :seen' : ''}`,
            ConditionExpression:
              expectedV === undefined ? 'attribute_exists(pk) AND attribute_not_exists(ingest_n)' : 'ingest_v = :expected OR (attribute_not_exists(ingest_v) AND ingest_n = :expected)',
            ExpressionAttributeValues: {
              ':s': JSON.stringify(ingest.state),
              ':n': ingest.n,
              ':v': ingest.v ?? ingest.n,
              ...(expectedV === undefined ? {} : { ':expected': expectedV }),
              ...(live ? { ':lu': live.lastUpdated, ':seen': live.seenAt } : {}),
            },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
    async listKnodeAssets(farmId) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':p': `FARM#${farmId}`, ':s': 'KNODE#' },
      });
      return items.map((i) => knodeAssetSchema.parse(strip(i)));
    },
  };
};
