import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router-dom';
import { ESCALATION_STEP_LABEL, isCritical } from '@shared/alerts/escalation';
import { isSystemType, NOTIFICATION_STATUS } from '@shared/alerts/types';
import { NO_DETAIL_MESSAGE } from '@shared/api/actions/farmer-notification';
import { minutesLate } from '@shared/dairy-company/events';
import type { Farm } from '@shared/entities/farm';
import { useSnackbar } from '../../../components/snackbar';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import {
  editNotificationStatus,
  escalationStepsQuery,
  NOTIFICATION_KEY_PREFIX,
  notificationDetail,
  notificationListQuery,
  type AlertItem,
} from '../api/notifications';
import { formatAgitator, formatTemperature, formatVolume, typeLabel } from '../../../lib/format';
import { formatWhen } from '../../../lib/time-format';
import './alerts.css';

/** What this screen reads from the farmer shell's outlet context (its contract, not its code). */
interface AlertsContext {
  readonly farm: Pick<Farm, '_id' | 'timezone'> | undefined;
}

type SubTab = 'alerts' | 'archive';

/** Farmer §2.8: Alerts are the non-archived system alerts (type below 1000); Archive is status 3. */
const alertsOf = (list: readonly AlertItem[], tab: SubTab): AlertItem[] =>
  tab === 'archive'
    ? list.filter((n) => n.status === NOTIFICATION_STATUS.archived)
    : list.filter((n) => n.status !== NOTIFICATION_STATUS.archived && isSystemType(n.type));

/** Groups by vat number, vats in order; the list's order (newest first) is kept within a vat. */
const byVat = (list: readonly AlertItem[]): [number, AlertItem[]][] => {
  const groups = new Map<number, AlertItem[]>();
  for (const n of list) groups.set(n.device.vat_number, [...(groups.get(n.device.vat_number) ?? []), n]);
  return [...groups.entries()].sort(([a], [b]) => a - b);
};

/** /dts/notification (farmer §2.8): sub tabs Alerts and Archive, grouped by vat, each alert expandable. */
export function AlertsPage() {
  const { farm } = useOutletContext<AlertsContext>();
  const farmId = farm?._id ?? '';
  const client = useApiClient();
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const navigate = useNavigate();
  const [tab, setTab] = useState<SubTab>('alerts');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const list = useInfiniteQuery({ ...notificationListQuery(client, farmId), enabled: farm !== undefined });

  // After each change the list and the tab marker's unread check are fetched again (§2.8).
  const edit = useMutation({
    mutationFn: ({ id, status }: { id: string; status: 2 | 3 }) => editNotificationStatus(client, farmId, id, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATION_KEY_PREFIX }),
  });
  const detail = useMutation({
    mutationFn: (alert: AlertItem) => notificationDetail(client, farmId, alert._id),
    onSuccess: (answer, alert) => {
      if (answer._id) void navigate(paths.storage.to(answer._id, alert._id));
      else snackbar.show(NO_DETAIL_MESSAGE, 'error');
    },
  });

  const toggle = (alert: AlertItem) => {
    const opening = !open.has(alert._id);
    setOpen((prev) => {
      const next = new Set(prev);
      if (opening) next.add(alert._id);
      else next.delete(alert._id);
      return next;
    });
    // Opening marks read unless archived (farmer §2.8, §4); a read one needs no call.
    if (opening && alert.status === NOTIFICATION_STATUS.unread) edit.mutate({ id: alert._id, status: 2 });
  };

  const archive = (alert: AlertItem) => {
    // It leaves this list; it is shown closed in the Archive.
    setOpen((prev) => new Set([...prev].filter((id) => id !== alert._id)));
    edit.mutate({ id: alert._id, status: 3 });
  };

  const all = list.data?.pages.flat() ?? [];
  const shown = alertsOf(all, tab);
  const unread = alertsOf(all, 'alerts').filter((n) => n.status === NOTIFICATION_STATUS.unread).length;

  return (
    <section className="alerts">
      <h1 className="page__title">Alerts</h1>
      <div className="alerts__tabs" role="tablist" aria-label="Alert lists">
        {(['alerts', 'archive'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`alerts-tab-${t}`}
            aria-selected={tab === t}
            aria-controls="alerts-panel"
            className="alerts__tab"
            onClick={() => setTab(t)}
          >
            {t === 'alerts' ? 'Alerts' : 'Archive'}
            {t === 'alerts' && unread > 0 && (
              <>
                <span className="alerts__count" aria-hidden="true">
                  {unread}
                </span>
                <span className="visually-hidden">{` (${unread} unread)`}</span>
              </>
            )}
          </button>
        ))}
      </div>
      <div id="alerts-panel" role="tabpanel" aria-labelledby={`alerts-tab-${tab}`}>
        {list.isPending && farm ? (
          <p className="page__note">Loading…</p>
        ) : list.isError ? (
          <p className="page__note">The alerts could not be loaded.</p>
        ) : shown.length === 0 ? (
          <p className="page__note">{tab === 'alerts' ? 'No alerts.' : 'No archived alerts.'}</p>
        ) : (
          byVat(shown).map(([vat, alerts]) => (
            <section key={vat} className="alerts__vat" aria-labelledby={`alerts-vat-${tab}-${vat}`}>
              <h2 id={`alerts-vat-${tab}-${vat}`} className="alerts__vat-title">
                Vat {vat}
              </h2>
              <ul className="alerts__list">
                {alerts.map((alert) => (
                  <AlertRow
                    key={alert._id}
                    alert={alert}
                    farmId={farmId}
                    timeZone={farm?.timezone}
                    expanded={open.has(alert._id)}
                    onToggle={() => toggle(alert)}
                    onArchive={() => archive(alert)}
                    onDetail={() => detail.mutate(alert)}
                    busy={edit.isPending || detail.isPending}
                  />
                ))}
              </ul>
            </section>
          ))
        )}
        {list.hasNextPage && (
          <button type="button" className="button button--text alerts__more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? 'Loading…' : 'Load older alerts'}
          </button>
        )}
      </div>
    </section>
  );
}

interface AlertRowProps {
  readonly alert: AlertItem;
  readonly farmId: string;
  readonly timeZone: string | undefined;
  readonly expanded: boolean;
  readonly busy: boolean;
  readonly onToggle: () => void;
  readonly onArchive: () => void;
  readonly onDetail: () => void;
}

/**
 * The dairy company's alerts (farmer §9: over 1000) show their own figure instead of temperature,
 * volume and agitator: 1001-1004 the quality value, 1102 the agitator outage percent, 1201 the
 * minutes the milking ended late.
 */
function DairyFacts({ alert }: { readonly alert: AlertRowProps['alert'] }) {
  if (alert.type === 1201) {
    return (
      <div>
        <dt>Minutes late</dt>
        <dd>{alert.lateMilking ? `${minutesLate(alert.lateMilking)} min` : '-'}</dd>
      </div>
    );
  }
  if (alert.type === 1102) {
    return (
      <div>
        <dt>Agitator outage</dt>
        <dd>{alert.quality?.agitator_outage_percent === undefined ? '-' : `${alert.quality.agitator_outage_percent}%`}</dd>
      </div>
    );
  }
  return (
    <div>
      <dt>Quality</dt>
      <dd>{alert.quality?.value === undefined ? '-' : alert.quality.value.toFixed(2)}</dd>
    </div>
  );
}

function AlertRow({ alert, farmId, timeZone, expanded, busy, onToggle, onArchive, onDetail }: AlertRowProps) {
  const bodyId = useId();
  const label = typeLabel(alert.type);
  const when = formatWhen(alert.data.published_at, timeZone);
  const unread = alert.status === NOTIFICATION_STATUS.unread;
  const archived = alert.status === NOTIFICATION_STATUS.archived;
  return (
    <li className={`alert-row${unread ? ' alert-row--unread' : ''}`}>
      <div className="alert-row__head">
        <button type="button" className="alert-row__toggle" aria-expanded={expanded} aria-controls={bodyId} onClick={onToggle}>
          <span className="alert-row__label">
            {label}
            {unread && <span className="visually-hidden"> (unread)</span>}
          </span>
          <span className="alert-row__when">{when}</span>
        </button>
        {!archived && (
          <button type="button" className="alert-row__archive" aria-label={`Archive ${label} at ${when}`} title="Archive" disabled={busy} onClick={onArchive}>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M20.54 5.23 19.15 3.55A1.45 1.45 0 0 0 18 3H6c-.47 0-.88.21-1.16.55L3.46 5.23C3.17 5.57 3 6.02 3 6.5V19a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6.5c0-.48-.17-.93-.46-1.27zM12 17.5 6.5 12H10v-2h4v2h3.5L12 17.5zM5.12 5l.81-1h12l.94 1H5.12z"
              />
            </svg>
          </button>
        )}
      </div>
      {expanded && (
        <div id={bodyId} className="alert-row__body">
          <dl className="alert-row__facts">
            <div>
              <dt>Alert</dt>
              <dd>{label}</dd>
            </div>
            <div>
              <dt>When</dt>
              <dd>{when}</dd>
            </div>
            {isSystemType(alert.type) ? (
              <>
                <div>
                  <dt>Temperature</dt>
                  <dd>{formatTemperature(alert.data.temp1)}</dd>
                </div>
                <div>
                  <dt>Volume</dt>
                  <dd>{formatVolume(alert.data.milk_volume)}</dd>
                </div>
                <div>
                  <dt>Agitator</dt>
                  <dd>{formatAgitator(alert.data.agitator_status)}</dd>
                </div>
              </>
            ) : (
              <DairyFacts alert={alert} />
            )}
          </dl>
          {alert.detail && <p className="alert-row__detail">{alert.detail}</p>}
          {isCritical(alert.type) && <EscalationSteps farmId={farmId} alertId={alert._id} timeZone={timeZone} />}
          <button type="button" className="button button--text" disabled={busy} onClick={onDetail}>
            View detail
          </button>
        </div>
      )}
    </li>
  );
}

const STATE_TEXT: Readonly<Record<string, string>> = {
  pending: 'due',
  sending: 'sending',
  sent: 'sent',
  skipped: 'not sent',
  dead: 'failed',
  unconfirmed: 'not sent (email not confirmed)',
};

/** A critical alert's escalation steps, each: what, to whom, how, when, and what became of it. */
function EscalationSteps({ farmId, alertId, timeZone }: { readonly farmId: string; readonly alertId: string; readonly timeZone: string | undefined }) {
  const client = useApiClient();
  const steps = useQuery(escalationStepsQuery(client, farmId, alertId));
  if (!steps.data || steps.data.length === 0) return null;
  return (
    <section className="alert-row__escalation" aria-label="Escalation">
      <h3>Escalation</h3>
      <ul>
        {steps.data.map((s) => (
          <li key={`${s.step}-${s.recipient}-${s.channel}`}>
            {ESCALATION_STEP_LABEL[s.step]} to {s.recipient} by {s.channel === 'sms' ? 'text' : 'email'} at {formatWhen(s.due_at, timeZone)}: {STATE_TEXT[s.state] ?? s.state}
            {s.state === 'skipped' && s.reason ? ` (${s.reason})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
