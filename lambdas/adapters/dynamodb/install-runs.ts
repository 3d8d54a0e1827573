import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GSI1 } from '../../../shared/data/tables';
import type { Device } from '../../../shared/entities/device';
import type { Farm } from '../../../shared/entities/farm';
import type { Unit } from '../../../shared/entities/install';
import { farmsKeys as k } from './keys';
import { conditional, queryAll, type Item } from './query';
import type { InstallRepository, InstallRun } from '../../ports/installs';

/** A finished run is kept a week: a retry of its request in that time answers the same install. */
const DONE_KEPT_S = 7 * 86_400;
/** The workflow's own marks on what it writes: which request made an item. */
const MADE_BY = 'attribute_not_exists(pk) OR install_request = :r';

type RunMethods = Pick<
  InstallRepository,
  | 'getRun'
  | 'createRun'
  | 'saveRun'
  | 'deleteRun'
  | 'listStaleRuns'
  | 'claimSupply'
  | 'releaseSupply'
  | 'createFarm'
  | 'createDevice'
  | 'createUnit'
  | 'swapCertificate'
  | 'removeFarm'
  | 'removeDevice'
  | 'removeUnit'
>;

const runItem = (run: InstallRun): Item => {
  const { kind, ...rest } = run;
  const open = run.state !== 'done';
  return {
    ...k.installRun(run.imei, kind),
    kind: 'INSTALLRUN',
    run_kind: kind,
    ...rest,
    ...(open ? { gsi1pk: k.openRuns, gsi1sk: `${run.lease_until}#${run.imei}#${kind}` } : { expires_at: Math.floor(Date.parse(run.updated_at) / 1000) + DONE_KEPT_S }),
  };
};
const runOf = (item: Item): InstallRun => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, kind: _k, expires_at: _e, run_kind, ...rest } = item;
  return { ...(rest as Omit<InstallRun, 'kind'>), kind: run_kind as InstallRun['kind'] };
};

/**
 * The install workflow's records (lambdas/installer/workflow.ts) in the Farms table: every write
 * is conditional, on the run's version or on the request that made an item, so two invocations
 * never both act and an undo never deletes another install's records. PutItem and DeleteItem only
 * (the installs port's grant).
 */
export const dynamoInstallRuns = (doc: DynamoDBDocumentClient, table: string): RunMethods => {
  const put = (Item: Item, ConditionExpression: string, values: Record<string, unknown> = {}) =>
    conditional(() => doc.send(new PutCommand({ TableName: table, Item, ConditionExpression, ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}) })));
  const removeMine = async (keys: readonly Item[], request: string) => {
    for (const Key of keys) await conditional(() => doc.send(new DeleteCommand({ TableName: table, Key, ConditionExpression: 'install_request = :r', ExpressionAttributeValues: { ':r': request } })));
  };
  return {
    async getRun(imei, kind) {
      const res = await doc.send(new GetCommand({ TableName: table, Key: k.installRun(imei, kind), ConsistentRead: true }));
      return res.Item ? runOf(res.Item) : undefined;
    },
    createRun: (run) => put(runItem(run), 'attribute_not_exists(pk)'),
    async saveRun(run) {
      const next = { ...run, version: run.version + 1 };
      return (await put(runItem(next), 'version = :v', { ':v': run.version })) ? next : undefined;
    },
    deleteRun: (run) =>
      conditional(() => doc.send(new DeleteCommand({ TableName: table, Key: k.installRun(run.imei, run.kind), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': run.version } }))),
    async listStaleRuns(before) {
      const items = await queryAll(doc, table, { IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :p AND gsi1sk < :b', ExpressionAttributeValues: { ':p': k.openRuns, ':b': before } });
      return items.map(runOf);
    },
    claimSupply: (supply, imei, request) =>
      put({ ...k.supplyClaim(supply), kind: 'SUPPLYCLAIM', imei, install_request: request }, 'attribute_not_exists(pk) OR install_request = :r', { ':r': request }),
    releaseSupply: (supply, request) => removeMine([k.supplyClaim(supply)], request),
    async createFarm(farm: Farm, request) {
      const made = await put({ ...k.farm(farm._id), ...k.farmBySupplyNumber(farm.fonterra_id), kind: 'FARM', ...farm, install_request: request }, MADE_BY, { ':r': request });
      if (made) await doc.send(new PutCommand({ TableName: table, Item: { ...k.farmListing(farm._id), gsi1pk: k.allOf('FARM'), gsi1sk: farm.fonterra_id, install_request: request } }));
      return made;
    },
    async createDevice(device: Device, request) {
      const index = k.deviceByFarm(device.farm_id, device.vat_number, device._id);
      const item = { ...k.device(device._id), ...index, gsi2pk: k.fleet, gsi2sk: device.name, kind: 'DEVICE', ...device, install_request: request };
      const made = await put(item, MADE_BY, { ':r': request });
      if (!made) return false;
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.thing(device.name), kind: 'THING', owner: 'device', device_id: device._id, install_request: request } }));
      await doc.send(new PutCommand({ TableName: table, Item: { ...k.deviceListing(device._id), gsi1pk: k.allOf('DEVICE'), gsi1sk: device.name, install_request: request } }));
      return true;
    },
    createUnit: (unit: Unit, request) => put({ ...k.unit(unit.imei, unit.farm_id), kind: 'UNIT', ...unit, install_request: request }, MADE_BY, { ':r': request }),
    async swapCertificate(imei, from, to) {
      const res = await doc.send(new GetCommand({ TableName: table, Key: k.unitId(imei), ConsistentRead: true }));
      if (!res.Item || res.Item.certificate_id !== from) return false;
      return from === undefined
        ? put({ ...res.Item, certificate_id: to }, 'attribute_exists(pk) AND attribute_not_exists(certificate_id)')
        : put({ ...res.Item, certificate_id: to }, 'certificate_id = :from', { ':from': from });
    },
    removeFarm: (farmId, request) => removeMine([k.farmListing(farmId), k.farm(farmId)], request),
    removeDevice: (device, request) => removeMine([k.deviceListing(device._id), k.thing(device.name), k.device(device._id)], request),
    removeUnit: (imei, request) => removeMine([k.unitId(imei)], request),
  };
};
