import { IoTClient, ListThingsCommand } from '@aws-sdk/client-iot';
import type { FarmRepository } from '../dynamodb/farms-repository';
import { optionalEnv } from '../../lib/env';

/** A registered thing and the vat device it names (its `device_id` attribute). */
export interface RegisteredThing {
  readonly thingName: string;
  readonly deviceId: string | undefined;
}

/** The device registry the fleet's names come from (operator §2 'Load name from Particle'). */
export interface ThingRegistry {
  listThings(): Promise<RegisteredThing[]>;
}

/** AWS IoT's thing registry: every thing, page by page, with its device_id attribute. */
export const iotThingRegistry = (client: IoTClient): ThingRegistry => ({
  async listThings() {
    const out: RegisteredThing[] = [];
    let nextToken: string | undefined;
    do {
      const page = await client.send(new ListThingsCommand({ maxResults: 250, ...(nextToken ? { nextToken } : {}) }));
      for (const t of page.things ?? []) if (t.thingName) out.push({ thingName: t.thingName, deviceId: t.attributes?.device_id });
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  },
});

/**
 * Until the local stack has an IoT control-plane stand-in (the installer issue), the registry of
 * the local stack is the device records themselves: each device is registered under its name.
 */
export const recordsThingRegistry = (farms: Pick<FarmRepository, 'listDevices'>): ThingRegistry => ({
  listThings: async () => (await farms.listDevices()).map((d) => ({ thingName: d.name, deviceId: d._id })),
});

export const thingRegistryFromEnv = (farms: Pick<FarmRepository, 'listDevices'>, env: NodeJS.ProcessEnv = process.env): ThingRegistry =>
  optionalEnv('THING_REGISTRY', env) === 'records' ? recordsThingRegistry(farms) : iotThingRegistry(new IoTClient({ region: optionalEnv('AWS_REGION', env) ?? 'us-east-1' }));
