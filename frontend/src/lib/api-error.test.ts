import { describe, expect, it } from 'vitest';
import { ApiError, errorTextOf } from './api-error';

describe('errorTextOf (what a screen says for a failed request)', () => {
  it("says the server's message for the user", () => {
    expect(errorTextOf(new ApiError({ kind: 'http', status: 422, serverMessage: 'Invalid farm' }), 'fallback')).toBe('Invalid farm');
  });

  it('joins a message of several lines with spaces', () => {
    expect(errorTextOf(new ApiError({ kind: 'http', status: 422, serverMessage: ['From is required.', 'To is required.'] }), 'fallback')).toBe('From is required. To is required.');
  });

  it('falls back where there is no message for the user, or the error is not an ApiError', () => {
    expect(errorTextOf(new ApiError({ kind: 'cancelled' }), 'The list could not be loaded.')).toBe('The list could not be loaded.');
    expect(errorTextOf(new Error('boom'), 'The list could not be loaded.')).toBe('The list could not be loaded.');
  });
});
