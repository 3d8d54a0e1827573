import { ListThingsCommand, type IoTClient } from '@aws-sdk/client-iot';
import { iotClientFromEnv } from './provisioning';
import type { RegisteredThing, ThingRegistry } from '../../ports/iot';

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

/** IoT's registry; locally IOT_ENDPOINT points the client at the control-plane stand-in (local/stand-ins/iot-control.ts). */
export const thingRegistryFromEnv = (env: NodeJS.ProcessEnv = process.env): ThingRegistry => iotThingRegistry(iotClientFromEnv(env));
