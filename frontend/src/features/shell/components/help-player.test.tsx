import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HELP_PLAYER_START_MS } from '@shared/constants';
import { HELP_STEP_MS, HELP_STEPS, HelpPlayer } from './help-player';

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const status = () => screen.getByRole('status', { name: 'Player' });

describe('help player (farmer row 224, §9: starts after 3 seconds)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('farmer row 224: waits 3 seconds on the first step, then plays a step every HELP_STEP_MS to the last', () => {
    render(<HelpPlayer onClose={() => {}} />);
    expect(HELP_PLAYER_START_MS).toBe(3_000);
    expect(status()).toHaveTextContent('Starts in 3 seconds');
    expect(screen.getByText(`Step 1 of ${HELP_STEPS.length}`)).toBeInTheDocument();
    advance(HELP_PLAYER_START_MS - 1);
    expect(status()).toHaveTextContent('Starts in 3 seconds');
    advance(1);
    expect(status()).toHaveTextContent('Playing');
    expect(screen.getByText(`Step 1 of ${HELP_STEPS.length}`)).toBeInTheDocument();
    advance(HELP_STEP_MS);
    expect(screen.getByRole('heading', { name: HELP_STEPS[1]?.title })).toBeInTheDocument();
    for (let i = 2; i < HELP_STEPS.length + 2; i += 1) advance(HELP_STEP_MS);
    expect(screen.getByText(`Step ${HELP_STEPS.length} of ${HELP_STEPS.length}`)).toBeInTheDocument();
    expect(status()).toHaveTextContent('Finished');
  });

  it('farmer row 224: Pause holds the step; Play goes on; Previous and Next move by hand', () => {
    render(<HelpPlayer onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Help' });
    advance(HELP_PLAYER_START_MS);
    act(() => within(dialog).getByRole('button', { name: 'Pause' }).click());
    expect(status()).toHaveTextContent('Paused');
    advance(HELP_STEP_MS * 3);
    expect(screen.getByText(`Step 1 of ${HELP_STEPS.length}`)).toBeInTheDocument();
    act(() => within(dialog).getByRole('button', { name: 'Next' }).click());
    expect(screen.getByText(`Step 2 of ${HELP_STEPS.length}`)).toBeInTheDocument();
    act(() => within(dialog).getByRole('button', { name: 'Previous' }).click());
    act(() => within(dialog).getByRole('button', { name: 'Play' }).click());
    advance(HELP_STEP_MS);
    expect(screen.getByText(`Step 2 of ${HELP_STEPS.length}`)).toBeInTheDocument();
  });
});
