import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnackbarProvider, snackbarText, useSnackbar, type SnackbarApi } from './snackbar';

/** Renders the provider and hands back its API. */
const setup = (): { api: () => SnackbarApi } => {
  let captured: SnackbarApi | undefined;
  function Capture() {
    captured = useSnackbar();
    return null;
  }
  render(
    <SnackbarProvider>
      <Capture />
    </SnackbarProvider>,
  );
  return {
    api: () => {
      if (!captured) throw new Error('not rendered');
      return captured;
    },
  };
};

const shownText = () => screen.getByTestId('snackbar-text').textContent;

afterEach(() => {
  vi.useRealTimers();
});

describe('snackbarText', () => {
  it.each([
    ['nothing', undefined, 'An error occurred'],
    ['null', null, 'An error occurred'],
    ['an empty string', '', 'An error occurred'],
    ['a string', 'Success!', 'Success!'],
    ['an array', ['First problem', 'Second problem'], 'First problem\nSecond problem'],
    ['an object', { code: 7, detail: 'x' }, '{"code":7,"detail":"x"}'],
    ['an Error', new Error('Broken'), 'Broken'],
  ])('%s', (_label, input, expected) => {
    expect(snackbarText(input)).toBe(expected);
  });
});

describe('SnackbarProvider', () => {
  it('shows the default text when called without a message', () => {
    const { api } = setup();
    act(() => api().show());
    expect(shownText()).toBe('An error occurred');
  });

  it('joins an array with line breaks', () => {
    const { api } = setup();
    act(() => api().show(['email is required', 'phone is required']));
    expect(shownText()).toBe('email is required\nphone is required');
  });

  it('shows an object as its JSON text', () => {
    const { api } = setup();
    act(() => api().show({ status: 'bad' }));
    expect(shownText()).toBe('{"status":"bad"}');
  });

  it('announces errors as alerts', () => {
    const { api } = setup();
    act(() => api().show('Server Error!', 'error'));
    expect(screen.getByRole('alert')).toHaveTextContent('Server Error!');
  });

  it('hides after 6 seconds, not before', () => {
    vi.useFakeTimers();
    const { api } = setup();
    act(() => api().show('Pickup Submitted'));
    act(() => vi.advanceTimersByTime(5_999));
    expect(screen.getByText('Pickup Submitted')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Pickup Submitted')).not.toBeInTheDocument();
  });

  it('a new message replaces the old one and restarts the timer', () => {
    vi.useFakeTimers();
    const { api } = setup();
    act(() => api().show('first'));
    act(() => vi.advanceTimersByTime(4_000));
    act(() => api().show('second'));
    expect(screen.queryByText('first')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4_000));
    expect(shownText()).toBe('second');
    act(() => vi.advanceTimersByTime(2_000));
    expect(screen.queryByText('second')).not.toBeInTheDocument();
  });

  it('closes from its close button', async () => {
    const { api } = setup();
    act(() => api().show('Success!'));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Success!')).not.toBeInTheDocument();
  });
});
