import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { alertSettingsQuery } from '../../../lib/queries/alert-settings';
import type { VatLast } from '../../../lib/queries/dashboard-last';
import { formatWhen } from '../../../lib/time-format';
import './dashboard-tiles.css';

/** The vat's state machine (farmer §3 Storage reading) in words; som and eom count as milking (§4). */
const STATE_WORDS: Readonly<Record<string, string>> = {
  startup: 'Starting up',
  empty: 'Empty',
  som: 'Milking',
  milking: 'Milking',
  eom: 'Milking',
  storage: 'Storing milk',
};

const oneDecimal = (n: number) => (Math.round(n * 10) / 10).toFixed(1);

/** The controller's selector in words (farmer §3 alerts 112-114). */
const CONTROLLER_WORDS = { auto: 'Auto', manual: 'Manual override', off: 'Off', unknown: 'Unknown' } as const;

/** 'Controller: Manual override since 22 Nov 2026 14:05'; the server looks back 2 days for the change. */
const controllerText = (controller: VatLast['controller'], timeZone: string | undefined): string => {
  if (!controller) return 'Controller: Unknown';
  const words = CONTROLLER_WORDS[controller.status];
  return controller.since ? `Controller: ${words} since ${formatWhen(controller.since, timeZone)}` : `Controller: ${words} for over 2 days`;
};

/**
 * The Vat-Man Auto tile (farmer §2.5 "Vat-Man Auto farms show an extra tile", §4): per vat whether
 * the controller runs it, what the vat is doing from the latest reading, and the fridge's switching
 * temperatures from its controller settings (§2.9), with a link to change them, and the controller's
 * selector from telemetry (Auto, Manual override, Off, Unknown: alerts 112-114) with the time it last
 * changed, on the farm's clock.
 */
export const AutoTile = memo(function AutoTile({ farmId, vats, timeZone }: { readonly farmId: string; readonly vats: readonly VatLast[]; readonly timeZone: string | undefined }) {
  const client = useApiClient();
  const settings = useQuery(alertSettingsQuery(client, farmId)).data;
  return (
    <section className="card dashboard-tile" aria-labelledby="auto-tile-title">
      <div className="dashboard-tile__header">
        <h2 className="card__title dashboard-tile__title" id="auto-tile-title">
          Vat-Man Auto
        </h2>
        <Link className="button" to={paths.alertSettings.to()}>
          Auto settings
        </Link>
      </div>
      <ul className="card-list">
        {vats.map((vat) => {
          const auto = settings?.vats.find((v) => v._id === vat.device._id)?.auto_settings;
          const state = vat.last?.state_machine ? (STATE_WORDS[vat.last.state_machine] ?? vat.last.state_machine) : 'No recent reading';
          return (
            <li key={vat.device._id} className="card-list__item dashboard-tile__row">
              <span className="dashboard-tile__vat">Vat {vat.device.vat_number}</span>
              <span className="dashboard-tile__text">
                {vat.device.vat_auto ? 'Automatic control' : 'Not under automatic control'} · {state}
                <br />
                {controllerText(vat.controller, timeZone)}
                {auto && (
                  <>
                    <br />
                    Fridge on at {oneDecimal(auto.pro_refrige_temp_on)} °C, off at {oneDecimal(auto.pro_refrige_temp_off)} °C
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
