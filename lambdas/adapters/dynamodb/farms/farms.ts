import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { farmSchema } from '../../../../shared/entities/farm';
import { farmsKeys as k } from '../keys';
import { batchGetInOrder, getItem, queryGsi1, unlessConditionFails, type Item } from '../query';
import { strip } from './stored';
import type { FarmStore } from '../../../ports/farms';

const parseFarm = (i: Item | undefined) => (i ? farmSchema.parse(strip(i)) : undefined);
const listing = (id: string) => k.farmListing(id);

export const farmStore = (doc: DynamoDBDocumentClient, table: string): FarmStore => {
  const getFarms = async (farmIds: readonly string[]) => {
    const items = await batchGetInOrder(doc, table, [...new Set(farmIds)].map((id) => k.farm(id)));
    return items.map((i) => farmSchema.parse(strip(i)));
  };

  return {
    getFarm: async (farmId) => parseFarm(await getItem(doc, table, k.farm(farmId))),

    getFarms,

    async findFarmBySupplyNumber(fonterraId) {
      const [item] = await queryGsi1(doc, table, k.farmBySupplyNumber(fonterraId).gsi1pk);
      return parseFarm(item);
    },

    async putFarm(farm) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.farm(farm._id), ...k.farmBySupplyNumber(farm.fonterra_id), kind: 'FARM', ...farm } }));
      await doc.send(new PutCommand({ TableName: table, Item: { ...listing(farm._id), gsi1pk: k.allOf('FARM'), gsi1sk: farm.fonterra_id } }));
      // The operator search's name lookup (decision 056): one item per farm, replaced when the name changes.
      if (farm.name?.trim()) await doc.send(new PutCommand({ TableName: table, Item: { ...k.farmName(farm._id, farm.name), kind: 'FARM_NAME' } }));
    },

    setFarmFlag(farmId, flag, value, byOperator = false) {
      const hold = byOperator && flag === 'fonterra_api_status';
      return unlessConditionFails(
        async () => {
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
        },
        () => undefined,
      );
    },

    async listFarms() {
      // Fleet listings use a second sparse index key on the same GSI: gsi1pk ALL#<kind>.
      const entries = await queryGsi1(doc, table, k.allOf('FARM'));
      return getFarms(entries.map((e) => String(e.pk).slice('FARM#'.length)));
    },

    async deleteFarm(farmId) {
      for (const Key of [k.farm(farmId), listing(farmId), k.farmNameKey(farmId)]) await doc.send(new DeleteCommand({ TableName: table, Key }));
    },
  };
};
