import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../lib/logger';
import { alertEmailRouteOnConfirmation } from './alert-email-route';

const event = (triggerSource: PostConfirmationTriggerEvent['triggerSource'], attrs: Record<string, string>): PostConfirmationTriggerEvent =>
  ({
    version: '1',
    region: 'ap-southeast-2',
    userPoolId: 'ap-southeast-2_x',
    userName: 'aroha@example.nz',
    callerContext: { awsSdkVersion: '3', clientId: 'c' },
    triggerSource,
    request: { userAttributes: attrs },
    response: {},
  }) as PostConfirmationTriggerEvent;

const quiet = createLogger({}, 'error', () => undefined);

describe('the post-confirmation trigger', () => {
  it('makes the confirmed user their alert-email route, for their address as the product stores it', async () => {
    const ensure = vi.fn(async () => ({ email: '', topic_arn: '', subscription_arn: '', subscribed_at: '' }));
    const e = event('PostConfirmation_ConfirmSignUp', { sub: 'u-1', email: ' Aroha@Example.NZ ' });
    expect(await alertEmailRouteOnConfirmation({ ensure }, quiet)(e)).toBe(e);
    expect(ensure).toHaveBeenCalledWith({ _id: 'u-1', email: 'aroha@example.nz' });
  });

  it('does nothing for a confirmed password reset', async () => {
    const ensure = vi.fn();
    await alertEmailRouteOnConfirmation({ ensure }, quiet)(event('PostConfirmation_ConfirmForgotPassword', { sub: 'u-1', email: 'a@b.nz' }));
    expect(ensure).not.toHaveBeenCalled();
  });

  it('never fails the sign-up: an SNS failure is logged and the event returned', async () => {
    const lines: string[] = [];
    const ensure = vi.fn(async () => Promise.reject(new Error('Throttling')));
    const e = event('PostConfirmation_ConfirmSignUp', { sub: 'u-1', email: 'a@b.nz' });
    expect(await alertEmailRouteOnConfirmation({ ensure }, createLogger({}, 'info', (l) => lines.push(l)))(e)).toBe(e);
    expect(lines.join('\n')).toContain('alert email route not made');
  });
});
