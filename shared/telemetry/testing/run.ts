import { pointOf, type Activity, type ActivityKind, type ActivityPoint } from '../activities';
import type { Step, StepInput } from '../detectors/types';
import type { Reading, VatConfig } from '../reading';
import { TRACE_VAT } from './trace';

/** Steps one detector through readings the way detect does, collecting what changed. */
export const runSteps = <S>(
  step: (s: S, input: StepInput) => Step<S>,
  initial: S,
  readings: readonly Reading[],
  vat: VatConfig = TRACE_VAT,
): { state: S; changed: Activity[] } => {
  let state = initial;
  let previous: ActivityPoint | null = null;
  const changed: Activity[] = [];
  for (const reading of readings) {
    const out = step(state, { reading, previous, vat });
    state = out.state;
    changed.push(...out.changed);
    previous = pointOf(reading);
  }
  return { state, changed };
};

/** The closed activities of one kind, in order. */
const closedOf = (changed: readonly Activity[], kind: ActivityKind): Activity[] => changed.filter((a) => a.kind === kind && a.end !== null);

/** [start, end] instants of the closed activities of one kind: the compact thing to assert on. */
export const spans = (changed: readonly Activity[], kind: ActivityKind): Array<[string, string | undefined]> =>
  closedOf(changed, kind).map((a) => [a.start.published_at, a.end?.published_at]);
