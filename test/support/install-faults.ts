import { IoTClient } from '@aws-sdk/client-iot';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoFarmRepository } from '../../lambdas/adapters/dynamodb/farms-repository';
import { dynamoInstallRepository } from '../../lambdas/adapters/dynamodb/installs-repository';
import { iotProvisioning } from '../../lambdas/adapters/iot/provisioning';
import { installerHandlers } from '../../lambdas/actions/installer';
import { makeReconciler } from '../../lambdas/installer/reconcile';
import { RUN_LEASE_MS } from '../../lambdas/installer/run-engine';
import type { Caller } from '../../lambdas/lib/caller';
import type { ServedAction } from '../../lambdas/lib/dispatch';
import { createLogger } from '../../lambdas/lib/logger';
import type { Ports } from '../../lambdas/ports/action-ports';
import { startIotControlPlane, type IotControlPlane } from '../../local/stand-ins/iot-control';
import { localCa } from '../../local/stand-ins/local-ca';
import { installerContracts, type UnitDownload } from '../../shared/api/actions/installer';
import { unitThingName } from '../../shared/entities/install';
import { freePort } from './free-port';
import { Killed } from './killed';
import { newInstallFields } from './new-install';

const POLICY = 'faults-device-policy';
const log = createLogger({}, 'error', () => undefined);
const caller: Caller = { userId: 'installer-1', username: 'installer@example.nz', groups: ['Installer'], role: 'Installer', totp: true };
const newInstall = installerHandlers.find((a) => a.contract.type === 'NEW_INSTALL') as ServedAction;

export type InstallAnswer = { success: boolean; result: string; download?: UnitDownload };

/**
 * NEW_INSTALL's action over the real adapters (dynalite, the IoT control-plane stand-in) with a
 * clock the test moves, and containers that can be killed after their n-th port call: from then
 * on every call fails, as when Lambda's timeout or a crash stops the function there.
 */
export const installFaults = async (doc: () => DynamoDBDocumentClient, farmsTable: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'vatman-install-faults-'));
  const iot: IotControlPlane = await startIotControlPlane(await freePort(), join(dir, 'iot'), localCa(join(dir, 'ca')), 'localhost');
  const provisioning = iotProvisioning(new IoTClient({ endpoint: iot.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }), POLICY);
  const installs = dynamoInstallRepository(doc(), farmsTable);
  const farms = dynamoFarmRepository(doc(), farmsTable);
  let clock = Date.now();
  const now = () => new Date(clock);

  /** The ports of one container; `killAfter` calls in, it dies (undefined: it lives). */
  const container = (killAfter?: number) => {
    const state = { calls: 0, dead: false };
    const wrap = <T extends object>(real: T): T =>
      new Proxy(real, {
        get(target, key) {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            if (state.dead) throw new Killed();
            const result = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
            state.calls += 1;
            if (killAfter !== undefined && state.calls >= killAfter) {
              state.dead = true;
              throw new Killed();
            }
            return result;
          };
        },
      });
    const deps = { farms: wrap(farms), farmsWrite: wrap(farms), installs: wrap(installs), provisioning: wrap(provisioning), now } as unknown as Ports;
    return { state, deps };
  };

  const install = async (imei: string, supply: string, requestId: string, killAfter?: number) => {
    const c = container(killAfter);
    const input = installerContracts.NEW_INSTALL.input.parse({ type: 'NEW_INSTALL', ...newInstallFields(supply, imei), numVats: '2', vat2Diameter: '2337', vat2Volume: '4500', vat2Height: '1219', vat2RadarSerial: `R2-${supply}`, requestId });
    try {
      const answer = (await newInstall.run(input, { caller, deps: c.deps, log })) as InstallAnswer;
      return { answer, calls: c.state.calls, killed: c.state.dead };
    } catch (err) {
      // A killed container answers nothing: the error stands in for the connection the gateway lost.
      if (!c.state.dead) throw err;
      return { answer: undefined, calls: c.state.calls, killed: true };
    }
  };

  /** What is left of an install, in IoT and the Farms table. */
  const leftOf = async (imei: string, supply: string) => {
    const thing = unitThingName(imei);
    const attached = iot.certificatesOfThing(thing);
    return {
      thing: iot.thing(thing) !== undefined,
      activeOnThing: attached.filter((c) => c.status === 'ACTIVE').map((c) => c.certificateId),
      attached: attached.map((c) => c.certificateId),
      farm: (await farms.getFarm(`farm-${supply.toLowerCase()}`)) !== undefined,
      devices: (await Promise.all([1, 2].map((n) => farms.getDevice(`dev-${supply.toLowerCase()}-${n}`)))).filter(Boolean).length,
      unit: await installs.getUnit(imei),
      run: await installs.getRun(imei, 'install'),
      logged: (await installs.listEntries({ supplyNumber: supply, logType: 'New Installs', page: 0, pageSize: 50 })).installs.filter((e) => e.result.startsWith('Vat-Man installed')).length,
    };
  };

  return {
    iot,
    install,
    leftOf,
    /**
     * Certificates that could act with no thing to own them: active, or carrying the device policy.
     * (An inactive one with neither is inert: a revoked certificate, or one made by a container
     * killed before it recorded the id; docs/decisions/040.)
     */
    orphans: () => iot.certificates().filter((c) => (c.status === 'ACTIVE' || c.policies.length > 0) && !iot.thingOfCertificate(c.certificateArn)),
    /** Moves past every lease, as the time until a retry or the next scheduled run. */
    leasesEnd: () => {
      clock += RUN_LEASE_MS + 1_000;
    },
    reconcile: () => makeReconciler({ installs, provisioning, now, log }).run(),
    stop: () =>
      new Promise<void>((resolve) => {
        iot.server.close(() => resolve());
        iot.server.closeAllConnections();
      }),
  };
};
