import type { MqttClient } from 'mqtt';
import { UNIT_CHECK_TOPIC_FILTER, type UnitStatus } from '../../shared/installer/unit-check';
import { replyTopic } from '../../shared/telemetry/device-message';
import { effectsAt, WEAK_SIGNAL } from './faults';
import type { VatEntry } from './sim-farms';

/**
 * A unit's answer to Check Install (shared/installer/unit-check.ts), from its vats' models and
 * faults at their next minute (a fault injected now starts then, so the answer shows it at once):
 * undefined (no answer) when every vat is offline; the signal of its first reporting vat (weak
 * under weak_signal); power on BATTERY and discharging under power_cut; no sensor board for a
 * vat under sensor_board.
 */
const unitStatusOf = (vatsOfUnit: readonly VatEntry[]): UnitStatus | undefined => {
  const withEffects = vatsOfUnit.map((e) => ({ e, fx: effectsAt(e.model.activeFaults(e.next), e.next) }));
  const up = withEffects.filter((v) => !v.fx.offline);
  const first = up[0];
  if (!first) return undefined;
  const { signal } = first.e.model.state();
  const weak = up.some((v) => v.fx.weakSignal);
  const onBattery = up.some((v) => v.fx.powerCut);
  return {
    network: 'LTE',
    signal: weak ? { ...WEAK_SIGNAL } : { strength: signal.strength, quality: signal.quality },
    disconnects: signal.disconnects,
    power: onBattery ? { source: 'BATTERY', battery: { state: 'discharging' } } : { source: 'VIN', battery: { state: 'charging' } },
    sensorBoards: withEffects.filter((v) => !v.fx.sensorBoardMissing).map((v) => ({ vat: v.e.vatNumber, probe: true, radar: true })),
  };
};

/** The simulated units' answers to the commands the platform publishes to them. */
export const answerCommands = async (client: MqttClient, vats: ReadonlyMap<string, VatEntry>, units: ReadonlyMap<string, readonly VatEntry[]>, log: (line: string) => void) => {
  // Controller settings: a unit applies what arrives on dts/<unit>/cmd/settings for the
  // vat it names (a farm without a unit: the vat's own dts/<thing>/cmd/settings) and answers on
  // dts/<thing>/cmd/reply, as the real controller does; not while that vat is offline.
  // Check Install: a unit answers dts/<unit>/cmd/check with its status (unitStatusOf),
  // or not at all while offline.
  const settingsAnswer = (thing: string, vat: unknown): string | undefined => {
    const e = units.has(thing) ? units.get(thing)?.find((v) => v.vatNumber === vat) : vats.get(thing);
    if (!e || effectsAt(e.model.activeFaults(e.next), e.next).offline) return undefined;
    return 'Settings applied';
  };
  client.on('message', (topic, payload) => {
    const [, thing, , command] = topic.split('/');
    if (!thing || !(command === 'settings' ? vats.has(thing) || units.has(thing) : command === 'check' && units.has(thing))) return;
    try {
      const { request_id, vat } = JSON.parse(payload.toString('utf8')) as { request_id?: unknown; vat?: unknown };
      if (typeof request_id !== 'string') return;
      const answer = command === 'settings' ? settingsAnswer(thing, vat) : unitStatusOf(units.get(thing) ?? []);
      if (answer === undefined) return;
      void client.publishAsync(replyTopic(thing), JSON.stringify({ request_id, return_value: answer }), { qos: 1 }).catch(() => undefined);
    } catch {
      log(`simulator: unreadable command on ${topic}`);
    }
  });
  await client.subscribeAsync(['dts/+/cmd/settings', UNIT_CHECK_TOPIC_FILTER], { qos: 1 });

};
