import { describe, expect, it } from 'vitest';
import type { Farm } from '../../shared/entities/farm';
import type { Caller } from '../lib/caller';
import type { ServedAction } from '../lib/dispatch';
import { createLogger } from '../lib/logger';
import type { Ports } from '../ports/action-ports';
import { newInstallFields } from '../../test/support/new-install';
import { installerHandlers } from './installer';

const newInstall = installerHandlers.find((a) => a.contract.type === 'NEW_INSTALL') as ServedAction;
const caller: Caller = { userId: 'i1', username: 'installer@example.nz', groups: ['Installer'], role: 'Installer', totp: false };

/** Every port method answers as a store that holds nothing yet; the farm written is kept. */
const fakes = (now: string) => {
  const written: Farm[] = [];
  const any = (extra: Record<string, unknown> = {}) =>
    new Proxy(extra, { get: (target, name) => target[name as string] ?? (async () => (name === 'createCertificate' ? { certificateId: 'c1', certificateArn: 'arn:c1', certificatePem: 'pem', privateKey: 'key' } : undefined)) });
  const deps = {
    now: () => new Date(now),
    farmsWrite: any(),
    // A store that takes every conditional write: the run, its claims, the farm (kept), devices and unit.
    installs: any({
      createRun: async () => true,
      saveRun: async (run: { version: number }) => ({ ...run, version: run.version + 1 }),
      claimSupply: async () => true,
      createFarm: async (f: Farm) => (written.push(f), true),
      createDevice: async () => true,
      createUnit: async () => true,
    }),
    provisioning: any({ dataEndpoint: async () => 'iot.local' }),
  } as unknown as Ports;
  return { deps, written };
};

describe('NEW_INSTALL', () => {
  it("records the install date as the farm's day, not the UTC day", async () => {
    // 20:30 UTC on 26 Nov is 09:30 on 27 Nov in New Zealand (NZDT).
    const f = fakes('2026-11-26T20:30:00.000Z');
    const answer = await newInstall.run(
      { type: 'NEW_INSTALL', ...newInstallFields('TZ1', '352656190000001') },
      { caller, deps: f.deps, log: createLogger({}, 'error', () => undefined) },
    );
    expect(answer).toMatchObject({ success: true });
    expect(f.written.map((farm) => farm.install_date)).toEqual(['2026-11-27']);
  });
});
