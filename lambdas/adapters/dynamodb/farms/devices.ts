import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI2 } from '../../../../shared/data/tables';
import { DEVICE_CONFIG_FIELDS, deviceSchema, type Device } from '../../../../shared/entities/device';
import { farmsKeys as k } from '../keys';
import { getItem, queryAll, queryGsi1, type Item } from '../query';
import { strip } from './stored';
import type { DeviceStore } from '../../../ports/farms';

export const parseDevice = (i: Item) => deviceSchema.parse(strip(i));
const listing = (id: string) => k.deviceListing(id);

/** A farm's vats (adapter-internal): all of them, or those of one vat number (a retired device and its successor). */
export interface VatDevices {
  /** The farm's devices in gsi1 whose sort key starts with `prefix` (`VAT#`, or `VAT#<n>#` for one vat), in vat order. */
  devicesOfFarm(farmId: string, prefix: string): Promise<Device[]>;
}

export const vatDevices = (doc: DynamoDBDocumentClient, table: string): VatDevices => ({
  devicesOfFarm: async (farmId, prefix) => (await queryGsi1(doc, table, `FARM#${farmId}`, prefix)).map(parseDevice),
});

export const deviceStore = (doc: DynamoDBDocumentClient, table: string, vats: VatDevices = vatDevices(doc, table)): DeviceStore => ({
  async getDevice(deviceId) {
    const item = await getItem(doc, table, k.device(deviceId));
    return item ? parseDevice(item) : undefined;
  },

  async putDevice(device) {
    // An update, not a put: the device's live values and the ingest's state stay as they are.
    const fields = DEVICE_CONFIG_FIELDS.filter((f) => device[f] !== undefined);
    const index = k.deviceByFarm(device.farm_id, device.vat_number, device._id);
    const names = ['_id', 'kind', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', ...fields];
    await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: k.device(device._id),
        // The seen index holds active devices only (a retired one leaves it); a device keeps its last-seen key.
        UpdateExpression: `SET ${names.map((f) => `#${f} = :${f}`).join(', ')}, gsi3sk = if_not_exists(gsi3sk, :never)${device.status === 1 ? ', gsi3pk = :active' : ' REMOVE gsi3pk'}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((f) => [`#${f}`, f])),
        ExpressionAttributeValues: {
          ':never': k.seenNever,
          ...(device.status === 1 ? { ':active': k.activeFleet } : {}),
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
    await doc.send(new PutCommand({ TableName: table, Item: { ...listing(device._id), gsi1pk: k.allOf('DEVICE'), gsi1sk: device.name } }));
  },

  async deleteDevice(device) {
    for (const Key of [k.device(device._id), k.thing(device.name), listing(device._id)]) await doc.send(new DeleteCommand({ TableName: table, Key }));
  },

  listDevicesOfFarm: (farmId) => vats.devicesOfFarm(farmId, 'VAT#'),

  async listDevices() {
    // The fleet index holds every device's fields and live values: one query, by name.
    const items = await queryAll(doc, table, { IndexName: GSI2, KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': k.fleet } });
    return items.map(parseDevice);
  },
});
