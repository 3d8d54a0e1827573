import type { CalibrationCollection } from '@shared/api/actions/calibration';
import { calibrateRow, type CalibrationConfig, type CalibrationRow } from '@shared/calibration/formula';
import { formatWhen } from '../../../lib/time-format';

/** A collection as the page works on it: its radar readings and omit flag can be changed before Recalculate. */
export interface Row extends CalibrationRow {
  readonly source: CalibrationCollection;
}

export const rowOf = (c: CalibrationCollection): Row => ({
  source: c,
  startRadar: c.start_adjust?.radar_distance ?? null,
  endRadar: c.end_adjust?.radar_distance ?? null,
  fonterraVolume: c.fonterra_volume,
  fonterraTemperature: c.fonterra_temperature,
  temperature: c.start.temp1,
  omit: c.omit,
});

const show = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

interface Props {
  readonly rows: readonly Row[];
  /** The configuration the figures are computed with; none yet leaves the computed columns empty. */
  readonly calc: CalibrationConfig | undefined;
  /** The farm's zone: collection times are shown in it (operator §9). */
  readonly timeZone: string | undefined;
  readonly showUnadjusted: boolean;
  readonly onShowUnadjusted: (on: boolean) => void;
  readonly hideOmitted: boolean;
  readonly onHideOmitted: (on: boolean) => void;
  /** Flips the omit flag of the row at this index of `rows`. */
  readonly onToggleOmit: (index: number) => void;
}

/** The calibration page's collections table (operator §4): the readings, the §4 figures, the omit flags. */
export function CalibrationTable({ rows, calc, timeZone, showUnadjusted, onShowUnadjusted, hideOmitted, onHideOmitted, onToggleOmit }: Props) {
  const visible = rows.map((r, i) => ({ r, i })).filter(({ r }) => (showUnadjusted || r.source.start_adjust !== null) && !(hideOmitted && r.omit));
  return (
      <div className="card calibration__table-wrap">
        <table className="calibration__table">
          <thead>
            <tr>
              <th>
                <label>
                  <input type="checkbox" checked={showUnadjusted} onChange={(e) => onShowUnadjusted(e.target.checked)} aria-label="Show unadjusted collections" /> Collection Start
                </label>
              </th>
              <th>Radar Before</th>
              <th>Milk Before</th>
              <th>Volume Before</th>
              <th>Radar After</th>
              <th>Milk After</th>
              <th>Volume After</th>
              <th>Collection Volume</th>
              <th>Fonterra Volume</th>
              <th>Difference</th>
              <th>Diameter</th>
              <th>Collection Temp</th>
              <th>Fonterra Temp</th>
              <th>Difference</th>
              <th>
                <label>
                  <input type="checkbox" checked={hideOmitted} onChange={(e) => onHideOmitted(e.target.checked)} aria-label="Hide omitted collections" /> Omit
                </label>
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map(({ r, i }) => {
              const f = calc ? calibrateRow(r, calc) : undefined;
              return (
                <tr key={r.source._id}>
                  <td>{formatWhen(r.source.start.published_at, timeZone)}</td>
                  <td>{show(r.startRadar)}</td>
                  <td>{show(f?.startLevel)}</td>
                  <td>{show(f?.startVolume)}</td>
                  <td>{show(r.endRadar)}</td>
                  <td>{show(f?.endLevel)}</td>
                  <td>{show(f?.endVolume)}</td>
                  <td>{show(f?.collectionVolume)}</td>
                  <td>{show(r.fonterraVolume)}</td>
                  <td className={f?.volumeRed ? 'calibration__red' : undefined} data-red={f?.volumeRed ? 'true' : 'false'}>{show(f?.volumeDifference)}</td>
                  <td>{show(f?.diameter)}</td>
                  <td>{show(r.temperature)}</td>
                  <td>{show(r.fonterraTemperature)}</td>
                  <td className={f?.temperatureRed ? 'calibration__red' : undefined} data-red={f?.temperatureRed ? 'true' : 'false'}>{show(f?.temperatureDifference)}</td>
                  <td>
                    <input type="checkbox" checked={r.omit} onChange={() => onToggleOmit(i)} aria-label={`Omit ${formatWhen(r.source.start.published_at, timeZone)}`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {visible.length === 0 && <p className="page__note">No collections to show.</p>}
      </div>
  );
}
