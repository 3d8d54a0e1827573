import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynaliteTables, type DynaliteTables } from '../support/dynalite';
import { installFaults, type InstallAnswer } from '../support/install-faults';

/*
 * New Install (NEW_INSTALL) against crashes and races, over dynalite and the IoT control-plane
 * stand-in with the real SDK: a container killed after each of its port calls, with and without
 * the retry, and two submissions at once; nothing may be left orphaned.
 */
let store: DynaliteTables;
let f: Awaited<ReturnType<typeof installFaults>>;

beforeAll(async () => {
  store = await startDynaliteTables('install');
  f = await installFaults(store.doc, store.tables.FARMS_TABLE as string);
});
afterAll(async () => {
  await f?.stop();
  await store?.dynamo.stop();
});

/** One complete install and nothing else: the thing with exactly one active certificate (the one answered), its farm, vats, unit, one log entry. */
const complete = async (imei: string, supply: string, answer: InstallAnswer | undefined, what: string) => {
  expect(answer, what).toMatchObject({ success: true });
  const left = await f.leftOf(imei, supply);
  expect(left.activeOnThing, what).toEqual([answer?.download?.certificateId]);
  expect(left.attached, what).toEqual([answer?.download?.certificateId]);
  expect(left.unit?.certificate_id, what).toBe(answer?.download?.certificateId);
  expect({ farm: left.farm, devices: left.devices, logged: left.logged, run: left.run?.state }, what).toEqual({ farm: true, devices: 2, logged: 1, run: 'done' });
  expect(f.orphans(), what).toEqual([]);
};
const nothingLeft = async (imei: string, supply: string, what: string) => {
  expect(await f.leftOf(imei, supply), what).toEqual({ thing: false, activeOnThing: [], attached: [], farm: false, devices: 0, unit: undefined, run: undefined, logged: 0 });
  expect(f.orphans(), what).toEqual([]);
};


describe('install faults', () => {
  it('a crash at each New Install step, then the retry with the same requestId: one complete install, nothing orphaned', async () => {
    const clean = await f.install('352656170000000', '81000', 'clean-run-0000');
    await complete('352656170000000', '81000', clean.answer, 'clean');
    expect(clean.calls).toBeGreaterThan(15);
    for (let k = 1; k <= clean.calls; k += 1) {
      const imei = `3526561710${String(k).padStart(5, '0')}`;
      const supply = `82${String(k).padStart(3, '0')}`;
      const crashed = await f.install(imei, supply, `request-${k}-crash`, k);
      expect(crashed.killed, `crash after call ${k}`).toBe(true);
      f.leasesEnd();
      const retry = await f.install(imei, supply, `request-${k}-crash`);
      await complete(imei, supply, retry.answer, `crash after call ${k}, then the retry`);
    }
  }, 300_000);

  it('a crash at each New Install step and no retry: the reconciler undoes it, or finishes it past the unit record', async () => {
    for (let k = 1; k <= 26; k += 1) {
      const imei = `3526561720${String(k).padStart(5, '0')}`;
      const supply = `83${String(k).padStart(3, '0')}`;
      await f.install(imei, supply, `request-${k}-alone`, k);
      f.leasesEnd();
      const outcome = await f.reconcile();
      expect(outcome.left, `crash after call ${k}`).toBe(0);
      const left = await f.leftOf(imei, supply);
      if (left.unit) {
        // Past the commit point: the install stands (its key lost: REISSUE_CERTIFICATE gives a new one).
        expect(left.activeOnThing, `crash after call ${k}`).toEqual([left.unit.certificate_id]);
        expect({ farm: left.farm, devices: left.devices, logged: left.logged, run: left.run?.state }).toEqual({ farm: true, devices: 2, logged: 1, run: 'done' });
        expect(f.orphans()).toEqual([]);
      } else await nothingLeft(imei, supply, `crash after call ${k}, then the reconciler`);
    }
  }, 300_000);

  it('two concurrent installs of one unit, or of one farm: one winner, nothing left of the other', async () => {
    const [a, b] = await Promise.allSettled([f.install('352656173000001', '84001', 'same-unit-a'), f.install('352656173000001', '84002', 'same-unit-b')]);
    const won = [a, b].filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const lost = [a, b].find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(lost.reason.message)).toMatch(/IMEI 352656173000001 is (already installed|being installed by another submission)/);
    const winner = (won[0] as PromiseFulfilledResult<{ answer: InstallAnswer }>).value.answer;
    const winnerSupply = a.status === 'fulfilled' ? '84001' : '84002';
    await complete('352656173000001', winnerSupply, winner, 'the winner');
    expect((await f.leftOf('352656173000001', winnerSupply === '84001' ? '84002' : '84001')).farm).toBe(false);

    const [c, d] = await Promise.allSettled([f.install('352656173000002', '84003', 'same-farm-c'), f.install('352656173000003', '84003', 'same-farm-d')]);
    expect([c, d].filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(String(([c, d].find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.message)).toMatch(/Supply number 84003 is already installed/);
    const [winImei, loseImei] = c.status === 'fulfilled' ? ['352656173000002', '352656173000003'] : ['352656173000003', '352656173000002'];
    await complete(winImei, '84003', ((c.status === 'fulfilled' ? c : d) as PromiseFulfilledResult<{ answer: InstallAnswer }>).value.answer, 'the farm winner');
    const loser = await f.leftOf(loseImei, '84003');
    expect({ thing: loser.thing, unit: loser.unit, run: loser.run, attached: loser.attached }).toEqual({ thing: false, unit: undefined, run: undefined, attached: [] });
  });
});
