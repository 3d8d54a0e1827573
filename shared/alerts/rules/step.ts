import type { Reading } from '../../telemetry/reading';
import type { AlertContext, AlertEngineState, Cond } from '../engine-state';
import type { AlertData, NotificationType, RaisedAlert } from '../types';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const ms = (iso: string) => Date.parse(iso);

/**
 * One step of the engine: the state being changed and the raises and clears collected. Every
 * condition is a small tracker (`Cond`) with
 *  - a raise hold-off: the condition must hold for `raiseMs` (from the first reading showing it,
 *    the run broken only by a return to normal) before it is raised, once;
 *  - hysteresis: once raised it clears only when a stricter "back to normal" test (e.g. 0.3 °C
 *    under the limit) holds continuously for `clearMs`.
 * So a temperature hovering around 6.0 °C raises 102 once and clears once; it can be raised again
 * only after a real return to normal. One-shot events (back online, pick-up, milking duration)
 * are raised once per occurrence and never stay open.
 */
export class Step {
  readonly raised: RaisedAlert[] = [];
  readonly cleared: NotificationType[] = [];
  constructor(readonly state: AlertEngineState) {}

  cond(type: NotificationType): Cond {
    const key = String(type);
    const c = this.state.conds[key] ?? { since: null, open: false, clearSince: null };
    this.state.conds[key] = c;
    return c;
  }

  isOpen(type: NotificationType): boolean {
    return this.state.conds[String(type)]?.open === true;
  }

  /**
   * One tracker step. `over`: the raise condition holds now; `gate`: it may be raised now (a
   * cooling deadline passed, say); `normal`: the stricter return-to-normal test holds.
   */
  track(
    type: NotificationType,
    t: string,
    o: { over: boolean; gate?: boolean; normal: boolean; raiseMs: number; clearMs: number; data: AlertData; alert?: Partial<RaisedAlert>; unbroken?: boolean },
  ) {
    const c = this.cond(type);
    if (!c.open) {
      // The run resets only on a real return to normal, so a value hovering about the limit
      // (6.1, 5.9, 6.1 …) counts as continuous and is raised once rather than never.
      if (o.over) c.since = c.since ?? t;
      else if (o.normal || o.unbroken) c.since = null;
      if (o.over && (o.gate ?? true) && c.since !== null && ms(t) - ms(c.since) >= o.raiseMs) {
        c.open = true;
        c.clearSince = null;
        this.raised.push({ type, data: o.data, ...o.alert });
      }
      return;
    }
    c.clearSince = o.normal ? (c.clearSince ?? t) : null;
    if (o.normal && c.clearSince !== null && ms(t) - ms(c.clearSince) >= o.clearMs) this.close(type);
  }

  /** Opens a condition and raises it at once (a one-shot that stays open until closed). */
  openOnce(type: NotificationType, data: AlertData, since?: string, alert?: Partial<RaisedAlert>) {
    const c = this.cond(type);
    c.open = true;
    if (since !== undefined) c.since = since;
    this.once(type, data, alert);
  }

  /** Clears at once (the vat emptied, the milking ended, the device came back). */
  close(type: NotificationType) {
    const c = this.state.conds[String(type)];
    if (!c) return;
    if (c.open) this.cleared.push(type);
    delete this.state.conds[String(type)];
  }

  once(type: NotificationType, data: AlertData, alert?: Partial<RaisedAlert>) {
    this.raised.push({ type, data, ...alert });
  }
}

/** What every reading rule needs to know of the reading, worked out once per reading. */
export interface RuleReading {
  readonly reading: Reading;
  /** The reading's published_at, ISO and epoch ms: reading-driven rules run on the reading's own time. */
  readonly t: string;
  readonly now: number;
  readonly data: AlertData;
  /** The vat is milking now (som, milking and eom, farmer §4). */
  readonly milkingNow: boolean;
  /** The vat holds milk (at least 5 % of it, or a state that says so). */
  readonly hasMilk: boolean;
  /** Under 5 % of the vat counts as empty (farmer §4). */
  readonly isEmpty: (volume: number | null) => boolean;
}

/** A rule steps the engine for one reading: it reads and changes `step.state`, and raises or clears through `step`. */
export type ReadingRule = (step: Step, r: RuleReading, ctx: AlertContext) => void;
/** A rule that comes due with time alone: run on every reading and by the sweep. */
export type TimeRule = (step: Step, now: number, ctx: AlertContext) => void;
