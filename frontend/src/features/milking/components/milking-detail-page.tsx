import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, useOutletContext, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useApiClient } from '../../../lib/api-client-provider';
import { ApiError, errorTextOf } from '../../../lib/api-error';
import { milkingOneQuery, type MilkingOne } from '../api/milking-one';
import type { MilkingContext } from './milking-page';
import { coolingTrace, dateTime, degrees, duration, litres, markersOf, ruleWhen, speed, STATUS_LABEL } from '../utils/milking-view';
import './milking.css';

// chart.js is most of this screen's weight: the figures and the rules come first.
const CoolingChart = lazy(() => import('./cooling-chart').then((m) => ({ default: m.CoolingChart })));
const MilkingBriefCard = lazy(() => import('./milking-brief').then((m) => ({ default: m.MilkingBriefCard })));

/** The server answers 403 for an id that does not exist or is another farm's (so ids cannot be probed). */
const isNotFound = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

const errorText = (error: unknown): string => errorTextOf(error, 'The milking could not be loaded.');

function Fact({ label, value }: { readonly label: string; readonly value: string }) {
  return (
    <div className="milking-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** A start or stop card (farmer §2.6): plate, inlet and vat temperatures and the volume. */
function PointCard({ title, card, timeZone }: { readonly title: string; readonly card: MilkingOne['startCard'] | null; readonly timeZone: string | undefined }) {
  return (
    <section className="card milking-card" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      {card ? (
        <dl className="milking-facts">
          <Fact label="Time" value={dateTime(card.published_at, timeZone)} />
          <Fact label="Plate" value={degrees(card.plate)} />
          <Fact label="Inlet" value={degrees(card.inlet)} />
          <Fact label="Vat" value={degrees(card.vat)} />
          <Fact label="Volume" value={litres(card.volume)} />
        </dl>
      ) : (
        <p className="page__note">The milking has not ended yet.</p>
      )}
    </section>
  );
}

/** The raw milk cooling rules of farmer §9 as the server judged them for this milking. */
function CoolingRules({ rules, timeZone }: { readonly rules: MilkingOne['compliance']; readonly timeZone: string | undefined }) {
  return (
    <section className="card milking-card milking-rules" aria-labelledby="milking-rules-title">
      <h2 className="card__title" id="milking-rules-title">
        Raw milk cooling rules
      </h2>
      <ul className="card-list">
        {rules.map((r) => (
          <li key={r.rule} className="card-list__item milking-rule" data-status={r.status}>
            <span className="milking-rule__text">{r.text}</span>
            <span className="milking-rule__status">{STATUS_LABEL[r.status]}</span>
            <span className="milking-rule__when">{ruleWhen(r, timeZone)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function MilkingDetail({ milking, timeZone }: { readonly milking: MilkingOne; readonly timeZone: string | undefined }) {
  const n = milking.device.vat_number;
  const start = Date.parse(milking.markers.start);
  const trace = coolingTrace(milking.detailData, milking.markers.start);
  const lastPoint = trace.length ? Date.parse(trace[trace.length - 1]?.published_at ?? '') : start;
  // The window runs at least to +6 h so every marker shows, even while the milk is still cooling.
  const to = Math.max(Date.parse(milking.markers.h6), lastPoint);
  return (
    <>
      <p className="milking-detail__vat">Vat {n}</p>
      <section className="card milking-card" aria-label="Overall">
        <dl className="milking-facts">
          <Fact label="Date" value={dateTime(milking.activity.start.published_at, timeZone)} />
          <Fact label="Duration" value={milking.activity.end ? duration(milking.summary.duration_min) : 'In progress'} />
          <Fact label="Productivity" value={litres(milking.summary.productivity_l)} />
          <Fact label="Speed" value={speed(milking.summary.speed_l_min)} />
        </dl>
      </section>
      <div className="milking-detail__cards">
        <PointCard title="Start" card={milking.startCard} timeZone={timeZone} />
        <PointCard title="Stop" card={milking.stopCard} timeZone={timeZone} />
      </div>
      <section className="card milking-card" aria-labelledby="milking-cooling-title">
        <h2 className="card__title" id="milking-cooling-title">
          Cooling trend
        </h2>
        {trace.length === 0 && <p className="page__note">No readings for this milking.</p>}
        <Suspense fallback={<p className="page__note">Loading chart…</p>}>
          <CoolingChart label={`Vat ${n} cooling trend`} points={trace} from={start} to={to} markers={markersOf(milking.markers)} timeZone={timeZone} />
        </Suspense>
      </section>
      <CoolingRules rules={milking.compliance} timeZone={timeZone} />
      <Suspense fallback={<p className="page__note">Loading chart…</p>}>
        <MilkingBriefCard activityId={milking._id} start={milking.activity.start.published_at} vatNumber={n} timeZone={timeZone} />
      </Suspense>
    </>
  );
}

/** /dts/milking/{activity_id} (farmer §2.6): one milking's figures, cooling trend and the §9 cooling rules. */
export function MilkingDetailPage() {
  const { activityId = '' } = useParams();
  // Under the farm tabs: the selected farm's zone is the clock of this page (§9).
  const { farm } = useOutletContext<MilkingContext | undefined>() ?? { farm: undefined };
  const client = useApiClient();
  const { data, error, isPending } = useQuery(milkingOneQuery(client, activityId));
  return (
    <section className="page milking">
      <p className="milking__back">
        <Link to={paths.milking.to()}>Back to Milking</Link>
      </p>
      <h1 className="page__title">Milking</h1>
      {isPending && <p className="page__note">Loading the milking…</p>}
      {error &&
        (isNotFound(error) ? (
          <div className="milking-error" role="alert">
            <h2 className="card__title">Milking not found</h2>
            <p>There is no such milking on your farms. It may belong to a farm you are not linked to.</p>
          </div>
        ) : (
          <p className="milking-error" role="alert">
            {errorText(error)}
          </p>
        ))}
      {data && <MilkingDetail milking={data} timeZone={farm?.timezone} />}
    </section>
  );
}
