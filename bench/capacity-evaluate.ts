/**
 * `npm run evaluate`: the capacity forecast's accuracy over simulated weeks.
 * The simulator's vat model (local/simulator/vat-model.ts: two milkings a day of 35-45 % of the
 * vat at about 05:30 and 15:30 farm time with their own noise, a collection when the next milking
 * would overflow, random faults) feeds the alert engine minute by minute, as the ingest would; at
 * each milking's end the forecast is made from the engine's own history and its 80 % time is
 * compared with the minute the simulated vat actually reached 80 %. A prediction the tanker made
 * moot (a collection before the vat reached 80 %) is counted apart. Prints, asserts nothing.
 */
import { forecastCapacity } from '../shared/alerts/capacity-forecast';
import { evaluate } from '../shared/alerts/engine';
import { initialAlertState, type AlertContext } from '../shared/alerts/engine-state';
import { DEFAULT_ALERT_SETTINGS } from '../shared/alerts/settings';
import { telemetryMessageSchema } from '../shared/telemetry/device-message';
import { toReading } from '../shared/telemetry/reading';
import { createVatModel } from '../local/simulator/vat-model';
import { percentile } from './percentile';

const MIN = 60_000;
const DAY = 1440 * MIN;
const vat = { vat_size: 20_000, vat_max_height: 2_600, vat_diameter: 3_200, wedgeHeight: 40, vat_volume_offset: 0 };
const ZONE = 'Pacific/Auckland';
const START = Date.parse('2025-03-03T00:00:00.000Z');
const SEEDS = [1, 2, 3, 4, 5, 6];
const WEEKS = 4;
/** The first week builds the history; predictions are scored from then on. */
const WARM_UP_DAYS = 7;

interface Prediction {
  readonly madeAt: number;
  readonly at80: number;
}


export const evaluateCapacity = (seeds: readonly number[] = SEEDS, weeks = WEEKS) => {
  const errors: number[] = [];
  const leads: number[] = [];
  let moot = 0;
  let none = 0;
  for (const seed of seeds) {
    const model = createVatModel({ device: `vm-bench-${seed}`, farmKey: `BENCH${seed}`, timezone: ZONE, vat, seed, randomFaultsPerDay: 0.3 });
    const ctx: AlertContext = { vat: { vat_size: vat.vat_size }, settings: DEFAULT_ALERT_SETTINGS, pro: true, dairyCompany: false, auto: false, timezone: ZONE };
    let state = initialAlertState();
    let open: Prediction[] = [];
    let lastVolume = 0;
    for (let m = 0; m < weeks * 7 * 1440; m++) {
      const t = START + m * MIN;
      const msg = model.step(t);
      const volume = model.volume();
      // The truth: the vat reached 80 % now (scores every open prediction), or a collection emptied it first.
      if (volume >= 0.8 * vat.vat_size && lastVolume < 0.8 * vat.vat_size) {
        for (const p of open) {
          errors.push(Math.abs(p.at80 - t) / MIN);
          leads.push((t - p.madeAt) / MIN);
        }
        open = [];
      } else if (volume < lastVolume - 0.05 * vat.vat_size) {
        moot += open.length;
        open = [];
      }
      lastVolume = volume;
      if (!msg) continue;
      const before = state.milking?.end ?? null;
      state = evaluate(state, toReading(telemetryMessageSchema.parse(msg), vat), ctx).state;
      const ended = state.milking?.end ?? null;
      if (ended === null || ended === before || m < WARM_UP_DAYS * 1440 || !state.capacity) continue;
      const reading = state.last;
      const f = forecastCapacity({ now: new Date(t).toISOString(), volume: reading?.milk_volume ?? null, vatSize: vat.vat_size, history: state.capacity, timeZone: ZONE });
      if (f.over80) continue;
      if (!f.at80 || Date.parse(f.at80) - t > 2 * DAY) {
        none += 1;
        continue;
      }
      open.push({ madeAt: t, at80: Date.parse(f.at80) });
    }
  }
  errors.sort((a, b) => a - b);
  return { n: errors.length, median: percentile(errors, 50), p90: percentile(errors, 90), medianLeadHours: percentile([...leads].sort((a, b) => a - b), 50) / 60, moot, none };
};

/** Prints the capacity forecast's accuracy (`npm run evaluate`, beside the cooling forecast's). */
export const benchCapacityForecast = () => {
  const started = Date.now();
  const r = evaluateCapacity();
  console.log(`capacity forecast over ${SEEDS.length} simulated vats x ${WEEKS} weeks (random faults 0.3/day; first week builds the history):`);
  console.log(`  80 % time, predicted at each milking end: median error ${r.median.toFixed(0)} min, 90th percentile ${r.p90.toFixed(0)} min (n=${r.n}, median lead ${r.medianLeadHours.toFixed(1)} h)`);
  console.log(`  predictions made moot by a collection before 80 %: ${r.moot}; no 80 % within 2 days: ${r.none}`);
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
};
