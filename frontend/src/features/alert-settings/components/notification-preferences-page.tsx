import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useOutletContext } from 'react-router-dom';
import { DEFAULT_ESCALATION, type EscalationSettings } from '@shared/alerts/escalation';
import type { PreferenceKey, Preferences } from '@shared/alerts/preferences';
import type { Farm } from '@shared/entities/farm';
import { useSnackbar } from '../../../components/snackbar';
import { useApiClient } from '../../../lib/api-client-provider';
import { useDismiss } from '../../../lib/use-dismiss';
import { AlertEmailNotice } from '../../../components/alert-email-notice';
import { preferencesQuery, savePreferences } from '../api/preferences';
import { PREFERENCE_GROUPS, PREFERENCE_TEXT, typesOf } from '../utils/preference-rows';
import './alert-settings.css';
import { SaveActions } from './save-actions';
import { PushCard } from './push-card';

/** What this screen reads from the farmer shell's outlet context (its contract, not its code). */
interface PreferencesContext {
  /** The route needs no farm (FARM_OPTIONAL); the preferences call is made for the selected one. */
  readonly farm: Pick<Farm, '_id'> | undefined;
}

type Channel = 'email' | 'text' | 'push';
const CHANNEL_LABEL: Record<Channel, string> = { email: 'Email', text: 'Text', push: 'Push' };

/** /dts/user/setting (farmer §2.11): email and text per alert row, four groups, one Save. */
export function NotificationPreferencesPage() {
  const { farm } = useOutletContext<PreferencesContext>();
  const client = useApiClient();
  const query = useQuery({ ...preferencesQuery(client, farm?._id ?? ''), enabled: farm !== undefined });

  return (
    <section className="settings">
      <h1 className="page__title">Notification Settings</h1>
      <AlertEmailNotice />
      {!farm ? (
        <p className="page__note">No farm is linked to your account yet, so there are no alerts to choose.</p>
      ) : !query.data ? (
        <p className="page__note">{query.isError ? 'The notification settings could not be loaded.' : 'Loading…'}</p>
      ) : (
        <>
          {query.data.sms && (
            <p className="prefs__sms">
              Texts sent this month: {query.data.sms.sent} of {query.data.sms.total}
            </p>
          )}
          <PreferencesForm key={farm._id} farmId={farm._id} initial={query.data.alert_setting} initialEscalation={query.data.escalation ?? DEFAULT_ESCALATION} />
        </>
      )}
    </section>
  );
}

/** The choices of the escalation select (a stored value outside them is shown as well). */
const ESCALATION_CHOICES: readonly number[] = [5, 10, 15, 30, 60];

function PreferencesForm({ farmId, initial, initialEscalation }: { readonly farmId: string; readonly initial: Preferences; readonly initialEscalation: EscalationSettings }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [prefs, setPrefs] = useState<Preferences>(initial);
  const [escalation, setEscalation] = useState<EscalationSettings>(initialEscalation);
  const save = useMutation({
    mutationFn: (value: Preferences) => savePreferences(client, farmId, value, escalation),
    onSuccess: () => {
      snackbar.show('Success!', 'success');
      void queryClient.invalidateQueries({ queryKey: preferencesQuery(client, farmId).queryKey });
    },
  });

  // Push is on unless turned off (a row saved before pushes existed has no flag).
  const on = (key: PreferenceKey, channel: Channel) => prefs[key][channel] ?? true;
  const flip = (key: PreferenceKey, channel: Channel) => setPrefs((p) => ({ ...p, [key]: { ...p[key], [channel]: !(p[key][channel] ?? true) } }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(prefs);
  };

  return (
    <form aria-label="Notification settings" onSubmit={submit}>
      {PREFERENCE_GROUPS.map((group) => (
        <section key={group.title} className="settings__card" aria-label={group.title}>
          <h2>{group.title}</h2>
          <table className="prefs__table">
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col" className="prefs__check">
                  Email
                </th>
                <th scope="col" className="prefs__check">
                  Text
                </th>
                <th scope="col" className="prefs__check">
                  Push
                </th>
              </tr>
            </thead>
            <tbody>
              {group.rows.map((key) => (
                <tr key={key}>
                  <th scope="row">
                    <span className="prefs__label">
                      {PREFERENCE_TEXT[key].label}
                      <InfoPopover rowKey={key} />
                    </span>
                  </th>
                  {(['email', 'text', 'push'] as const).map((channel) => (
                    <td key={channel} className="prefs__check">
                      <input
                        type="checkbox"
                        aria-label={`${CHANNEL_LABEL[channel]}: ${PREFERENCE_TEXT[key].label}`}
                        checked={on(key, channel)}
                        onChange={() => flip(key, channel)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <PushCard value={escalation} onChange={setEscalation} />
      <EscalationCard value={escalation} onChange={setEscalation} />
      <SaveActions pending={save.isPending} />
    </form>
  );
}

/** The row's info popover: what raises it and which alert types it covers. Escape or a click elsewhere closes it. */
function InfoPopover({ rowKey }: { readonly rowKey: PreferenceKey }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLSpanElement>(null);
  const { label, info } = PREFERENCE_TEXT[rowKey];
  const types = typesOf(rowKey);

  useDismiss(wrapper, open, () => setOpen(false));

  return (
    <span ref={wrapper}>
      <button type="button" className="prefs__info" aria-label={`About ${label}`} aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        i
      </button>
      {open && (
        <span id={id} role="note" aria-label={label} className="prefs__popover">
          {info}
          {types.length > 0 && ` Alert types: ${types.join(', ')}.`}
        </span>
      )}
    </span>
  );
}

/**
 * Escalation: a critical alert (over 10 °C, over 6 °C, power outage, agitator stopped,
 * cooling at risk, vat full before pickup) still unread after N minutes is texted again; the
 * organization opt-in brings the organization's other farms' ones after 2N.
 */
function EscalationCard({ value, onChange }: { readonly value: EscalationSettings; readonly onChange: (v: EscalationSettings) => void }) {
  const selectId = useId();
  const choices = value.minutes !== null && !ESCALATION_CHOICES.includes(value.minutes) ? [...ESCALATION_CHOICES, value.minutes].sort((a, b) => a - b) : ESCALATION_CHOICES;
  return (
    <section className="settings__card" aria-label="Escalation">
      <h2>Escalation</h2>
      <p className="page__note">A critical alert nobody has read is sent to you again by text. Critical alerts: milk over 10 °C or 6 °C, power outage, agitator stopped, cooling at risk and vat will be full before pickup.</p>
      <p>
        <label htmlFor={selectId}>Send an unread critical alert again after </label>
        <select id={selectId} value={value.minutes === null ? 'off' : String(value.minutes)} onChange={(e) => onChange({ ...value, minutes: e.target.value === 'off' ? null : Number(e.target.value) })}>
          <option value="off">Off</option>
          {choices.map((m) => (
            <option key={m} value={String(m)}>
              {m} minutes
            </option>
          ))}
        </select>
      </p>
      <p>
        <label>
          <input type="checkbox" checked={value.organization} disabled={value.minutes === null} onChange={() => onChange({ ...value, organization: !value.organization })} /> Also text me the unread critical alerts of my
          organization&apos;s other farms, after twice that time
        </label>
      </p>
    </section>
  );
}
