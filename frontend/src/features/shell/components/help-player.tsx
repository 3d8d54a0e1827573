import { useEffect, useState } from 'react';
import { HELP_PLAYER_START_MS } from '@shared/constants';
import { NoticeDialog } from '../../../components/dialog';
import './help-player.css';

/** How long each step stays on screen while playing. */
export const HELP_STEP_MS = 8_000;

/**
 * The walkthrough the player plays: the app's own words for where things are, served with the
 * app (no video host to reach, nothing to load when a farm's connection is poor).
 */
export const HELP_STEPS: readonly { readonly title: string; readonly text: string }[] = [
  { title: 'Your vats at a glance', text: 'Milk → Dashboard shows a card per vat: volume and percent, the level, the temperature, the agitator, and when the vat was last collected, milked and washed.' },
  { title: 'History and charts', text: "Below the cards, each vat's level, temperature and agitator charts. Pro and Auto farms pick a date range and download data.csv; other packages page back two days at a time." },
  { title: 'Milkings and cooling', text: 'The Milking tab lists each milking with its volume and cooling; open one to see it against the raw milk cooling rules (10°C within four hours, 6°C within six).' },
  { title: 'Alerts', text: 'Alerts lists what was raised on your farm. Open one for its detail; archive the ones you have dealt with.' },
  { title: 'Who gets told, and how', text: 'Settings → Alerts sets the thresholds; Notification Settings in your account menu chooses email or text for each alert type.' },
  { title: 'More than one farm', text: 'The farm selector above each page switches farm; your choice is remembered on this device.' },
];

type PlayState = { readonly kind: 'starting' } | { readonly kind: 'playing' } | { readonly kind: 'paused' };

/**
 * The help player (farmer §9 'Help player starts after 3 seconds'): opens on the first step,
 * starts playing after HELP_PLAYER_START_MS, then moves on a step every HELP_STEP_MS until the
 * last. Pause, the step buttons and Close are there from the first moment.
 */
export function HelpPlayer({ onClose }: { readonly onClose: () => void }) {
  const [step, setStep] = useState(0);
  const [state, setState] = useState<PlayState>({ kind: 'starting' });

  useEffect(() => {
    if (state.kind !== 'starting') return;
    const timer = setTimeout(() => setState({ kind: 'playing' }), HELP_PLAYER_START_MS);
    return () => clearTimeout(timer);
  }, [state.kind]);

  useEffect(() => {
    if (state.kind !== 'playing') return;
    if (step >= HELP_STEPS.length - 1) return;
    const timer = setTimeout(() => setStep((s) => Math.min(s + 1, HELP_STEPS.length - 1)), HELP_STEP_MS);
    return () => clearTimeout(timer);
  }, [state.kind, step]);

  const current = HELP_STEPS[step] ?? HELP_STEPS[0];
  const status = state.kind === 'starting' ? `Starts in ${HELP_PLAYER_START_MS / 1000} seconds` : state.kind === 'playing' ? (step === HELP_STEPS.length - 1 ? 'Finished' : 'Playing') : 'Paused';
  const go = (to: number) => setStep(Math.max(0, Math.min(HELP_STEPS.length - 1, to)));

  return (
    <NoticeDialog title="Help" onClose={onClose}>
      <div className="help-player" aria-roledescription="help player">
        <p className="help-player__status" role="status" aria-label="Player">
          {status}
        </p>
        <div className="help-player__step" aria-live="polite">
          <p className="help-player__count">
            Step {step + 1} of {HELP_STEPS.length}
          </p>
          <h3 className="help-player__title">{current?.title}</h3>
          <p className="help-player__text">{current?.text}</p>
        </div>
        <progress className="help-player__progress" max={HELP_STEPS.length} value={step + 1} aria-label="Progress" />
        <div className="help-player__controls">
          <button type="button" className="button button--text" onClick={() => go(step - 1)} disabled={step === 0}>
            Previous
          </button>
          {state.kind === 'paused' ? (
            <button type="button" className="button button--text" onClick={() => setState({ kind: 'playing' })}>
              Play
            </button>
          ) : (
            <button type="button" className="button button--text" onClick={() => setState({ kind: 'paused' })}>
              Pause
            </button>
          )}
          <button type="button" className="button button--text" onClick={() => go(step + 1)} disabled={step === HELP_STEPS.length - 1}>
            Next
          </button>
        </div>
      </div>
    </NoticeDialog>
  );
}
