import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../shared/alerts/settings';
import { evaluate } from '../../shared/alerts/engine';
import { initialAlertState, type AlertContext } from '../../shared/alerts/engine-state';
import { telemetryMessageSchema } from '../../shared/telemetry/device-message';
import { toReading } from '../../shared/telemetry/reading';
import type { FaultKind } from './faults';
import { createVatModel } from './vat-model';

/** The alert engine over realistic fault traces from the simulator's vat model. */
const vat = { vat_size: 20_000, vat_max_height: 2_600, vat_diameter: 3_200, wedgeHeight: 40, vat_volume_offset: 0 };
const ctx: AlertContext = { vat, settings: DEFAULT_ALERT_SETTINGS, pro: false, dairyCompany: false, auto: false };
const START = Date.parse('2025-03-10T00:00:00.000Z');
const DAY = 24 * 60;

const alertsOf = (fault: FaultKind, fromMinute: number, minutes: number, seed = 7, auto = false) => {
  const model = createVatModel({ device: 'vm-test-1', farmKey: 'TEST', timezone: 'Pacific/Auckland', vat, seed, controller: auto });
  model.inject(fault, minutes, START + fromMinute * 60_000);
  let state = initialAlertState();
  const raised: { type: number; minute: number }[] = [];
  for (let m = 0; m < 2 * DAY; m++) {
    const msg = model.step(START + m * 60_000);
    if (!msg) continue;
    const step = evaluate(state, toReading(telemetryMessageSchema.parse(msg), vat), { ...ctx, auto });
    state = step.state;
    // The first day settles the model (and the engine's milking history).
    if (m >= DAY) for (const a of step.raised) raised.push({ type: a.type, minute: m });
  }
  return raised;
};

describe('alerts from simulated faults', () => {
  it('chiller left off for 10 hours: 102 then 101, each once', () => {
    const raised = alertsOf('chiller_off', DAY, 600).filter((a) => a.type === 101 || a.type === 102);
    expect(raised.map((a) => a.type)).toEqual([102, 101]);
  });

  it('no fault: no temperature alert', () => {
    const raised = alertsOf('chiller_off', 3 * DAY, 10).filter((a) => a.type === 101 || a.type === 102);
    expect(raised).toEqual([]);
  });

  it('power cut of 6 minutes: 301 once; of 4 minutes: none', () => {
    expect(alertsOf('power_cut', DAY + 600, 6).filter((a) => a.type === 301)).toHaveLength(1);
    expect(alertsOf('power_cut', DAY + 600, 4).filter((a) => a.type === 301)).toHaveLength(0);
  });

  describe('a Vat-Man Auto vat (controller_status in every message)', () => {
    const controllerTypes = (raised: { type: number }[]) => raised.filter((a) => a.type >= 112 && a.type <= 114).map((a) => a.type);

    it('reports its selector on auto, and nothing on a vat without the controller', () => {
      const auto = createVatModel({ device: 'vm-a-1', farmKey: 'A', timezone: 'Pacific/Auckland', vat, seed: 3, controller: true });
      const plain = createVatModel({ device: 'vm-p-1', farmKey: 'P', timezone: 'Pacific/Auckland', vat, seed: 3 });
      expect(auto.step(START)?.controller_status).toBe('auto');
      expect(plain.step(START)).not.toHaveProperty('controller_status');
    });

    it('no fault: none of 112-114', () => {
      expect(controllerTypes(alertsOf('controller_manual', 3 * DAY, 10, 7, true))).toEqual([]);
    });

    it('selector on manual for an hour with milk in the vat: 113 once', () => {
      // Mid-morning of the second day, between milkings: the vat holds the morning's milk.
      expect(controllerTypes(alertsOf('controller_manual', DAY + 600, 60, 7, true))).toEqual([113]);
    });

    it('switched off for an hour: 114 once (and the vat, unrefrigerated and unstirred, goes on to 401)', () => {
      const raised = alertsOf('controller_off', DAY + 600, 60, 7, true);
      expect(controllerTypes(raised)).toEqual([114]);
      expect(raised.filter((a) => a.type === 401)).toHaveLength(1);
    });

    it('the controller gives no status for half an hour: 112 once', () => {
      expect(controllerTypes(alertsOf('controller_silent', DAY + 600, 30, 7, true))).toEqual([112]);
    });
  });
});
