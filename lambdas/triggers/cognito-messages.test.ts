import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { decodeResetToken } from '../../shared/api/actions/user';
import { customMessage } from './cognito-messages';

const event = (triggerSource: string, givenName = 'Aroha'): CustomMessageTriggerEvent =>
  ({
    triggerSource,
    userName: 'u',
    request: { userAttributes: { email: 'aroha@farm.nz', given_name: givenName }, codeParameter: '{####}' },
    response: { emailMessage: null, emailSubject: null, smsMessage: null },
  }) as unknown as CustomMessageTriggerEvent;

describe('CustomMessage trigger', () => {
  it('puts a reset link with the code placeholder in the forgot-password email', async () => {
    const out = await customMessage('https://vatman.example')(event('CustomMessage_ForgotPassword'));
    expect(out.response.emailSubject).toBe('Reset your Vat-Man password');
    const link = out.response.emailMessage?.match(/https:\/\/vatman\.example\/dts\/password\/reset\/([^\s<]+)/)?.[1] ?? '';
    expect(link.endsWith('.{####}')).toBe(true);
    expect(decodeResetToken(link.replace('{####}', '123456'))).toEqual({ email: 'aroha@farm.nz', code: '123456' });
    expect(out.response.emailMessage).toContain('Kia ora Aroha,');
  });

  it("leaves Cognito's other messages alone", async () => {
    const out = await customMessage('https://vatman.example')(event('CustomMessage_SignUp'));
    expect(out.response.emailMessage).toBeNull();
  });
});

describe('CustomMessage trigger: attribute verification', () => {
  it('emails a link to the profile page and texts the bare code, both with the placeholder Cognito fills', async () => {
    const out = await customMessage('https://vatman.example/')(event('CustomMessage_VerifyUserAttribute'));
    expect(out.response.emailSubject).toBe('Verify your Vat-Man email');
    expect(out.response.emailMessage).toContain('https://vatman.example/dts/user/profile/{####}');
    expect(out.response.smsMessage).toBe('Your Vat-Man verification code is {####}. Enter it on your profile page.');
  });
});

describe("CustomMessage trigger: the authenticator app's confirmation", () => {
  it('emails the bare code to type (no link that would verify the email instead), and says what to do if it was not them', async () => {
    const asked = event('CustomMessage_VerifyUserAttribute');
    asked.request.clientMetadata = { attribute: 'email', purpose: 'authenticator' };
    const out = await customMessage('https://vatman.example/')(asked);
    expect(out.response.emailSubject).toBe('Confirm your Vat-Man authenticator app');
    expect(out.response.emailMessage).toContain('<br>\n{####}<br>\n');
    expect(out.response.emailMessage).not.toContain('/dts/user/profile');
    expect(out.response.emailMessage).toContain('change your password');
  });
});

describe('CustomMessage trigger: a name stored before names were limited to letters', () => {
  // Cognito sends these emails as HTML: a name with markup in it would be a live link in the email.
  const legacy = 'Tom & <a href="https://evil.example/login">Verify here</a><!--';
  it.each(['CustomMessage_ForgotPassword', 'CustomMessage_VerifyUserAttribute'])('%s greets with the name as text, escaped', async (source) => {
    const out = await customMessage('https://vatman.example')(event(source, legacy));
    expect(out.response.emailMessage).toContain('Kia ora Tom &amp; &lt;a href=&quot;https://evil.example/login&quot;&gt;Verify here&lt;/a&gt;&lt;!--,');
    expect(out.response.emailMessage).not.toContain('<a ');
    expect(out.response.emailMessage).not.toContain('<!--');
  });
});
