import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { imeiOfUnitThing } from '../../../../shared/entities/install';
import { parseUnitVatSender } from '../../../../shared/telemetry/device-message';
import { farmsKeys as k } from '../keys';
import { getItem } from '../query';
import type { VatDevices } from './devices';
import type { ThingOwners } from '../../../ports/farms';

/** Thing names are resolved to a device or a knode gateway; a unit's vat sender through the unit's farm's vats (`vats`). */
export const thingOwners = (doc: DynamoDBDocumentClient, table: string, { vats }: { vats: VatDevices }): ThingOwners => ({
  async putKnodeGateway(thingName, farmId) {
    await doc.send(new PutCommand({ TableName: table, Item: { ...k.thing(thingName), kind: 'THING', owner: 'knode', farm_id: farmId } }));
  },

  async resolveThing(thingName) {
    // A unit's vat (dts/<unit>/<vat>/telemetry): the unit's farm's vat of that number.
    const unitVat = parseUnitVatSender(thingName);
    if (unitVat) {
      const imei = imeiOfUnitThing(unitVat.unit);
      const unit = imei ? await getItem(doc, table, k.unitId(imei)) : undefined;
      if (!unit) return undefined;
      const devices = await vats.devicesOfFarm(String(unit.farm_id), `VAT#${unitVat.vat}#`);
      // The active device of that vat; a retired one is still the sender (the ingest refuses it as retired).
      const device = devices.find((d) => d.status === 1) ?? devices[0];
      return device ? { kind: 'device', device_id: device._id } : undefined;
    }
    const item = await getItem(doc, table, k.thing(thingName));
    if (!item) return undefined;
    return item.owner === 'knode' ? { kind: 'knode', farm_id: String(item.farm_id) } : { kind: 'device', device_id: String(item.device_id) };
  },
});
