import { describe, expect, it } from 'vitest';
import { controllerNow } from './chart-series';
import type { ControllerStatus } from './device-message';
import { columnsFromReadings } from './reading-columns';
import { at, reading } from './testing/trace';

const of = (statuses: readonly (ControllerStatus | null)[]) =>
  controllerNow(columnsFromReadings(statuses.map((controller_status, m) => reading({ published_at: at(m), controller_status, message_type: controller_status ? 'DATA' : 'EM' }))));

describe('controllerNow (the Vat-Man Auto tile, farmer §2.5)', () => {
  it('gives the latest status and the first reading of its run: when it last changed', () => {
    expect(of(['auto', 'auto', 'manual', 'manual'])).toEqual({ status: 'manual', since: at(2) });
    expect(of(['manual', 'off', 'auto'])).toEqual({ status: 'auto', since: at(2) });
  });

  it('passes over readings that carry no status (they say nothing), before and within the run', () => {
    expect(of(['auto', null, 'off', null, 'off', null])).toEqual({ status: 'off', since: at(2) });
    expect(of(['auto', 'unknown', null, 'unknown'])).toEqual({ status: 'unknown', since: at(1) });
  });

  it('says since null when one status held over the whole range, and nothing when no reading has one', () => {
    expect(of(['auto', null, 'auto'])).toEqual({ status: 'auto', since: null });
    expect(of([null, null])).toBeUndefined();
    expect(of([])).toBeUndefined();
  });
});
