import { describe, expect, it } from 'vitest';
import { takeCodeBoxes } from './cognito';

/** A box as cognito-local prints it (boxen, with colour codes around it), after its log prefix. */
const box = (destination: string, code: string, subject?: string) =>
  [
    `[1795920441884] \u001b[32mINFO\u001b[39m: \u001b[36mc790d3cb SignUp ╭──────────╮`,
    '│   Confirmation Code Delivery   │',
    `│   Username:    d2df1250-39c6   │`,
    `│   Destination: ${destination}   │`,
    `│   Code:        ${code}   │`,
    ...(subject ? [`│   Email Subject: ${subject}   │`] : []),
    '╰──────────╯\u001b[39m \u001b[90m{"reqId":"c790d3cb","target":"SignUp"}\u001b[39m',
    '',
  ].join('\n');

describe('takeCodeBoxes', () => {
  it('reads both boxes of one chunk (a sign-up code and the verification sent right after)', () => {
    const { delivered, rest } = takeCodeBoxes(box('a@example.nz', '111111') + box('a@example.nz', '222222', 'Verify your Vat-Man email'));
    expect(delivered).toEqual([
      { destination: 'a@example.nz', code: '111111' },
      { destination: 'a@example.nz', code: '222222', subject: 'Verify your Vat-Man email' },
    ]);
    expect(rest).toBe('');
  });

  it('keeps an unfinished box for the next chunk', () => {
    const whole = box('b@example.nz', '333333', 'Reset your Vat-Man password');
    const first = takeCodeBoxes(whole.slice(0, 120));
    expect(first.delivered).toEqual([]);
    const second = takeCodeBoxes(first.rest + whole.slice(120));
    expect(second.delivered).toEqual([{ destination: 'b@example.nz', code: '333333', subject: 'Reset your Vat-Man password' }]);
    expect(second.rest).toBe('');
  });

  it('ignores log lines without a box', () => {
    expect(takeCodeBoxes('[1] INFO: started\n')).toEqual({ delivered: [], rest: '' });
  });
});
