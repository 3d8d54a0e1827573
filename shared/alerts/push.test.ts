import { describe, expect, it } from 'vitest';
import { pushEndpointAllowed } from './push';

/**
 * A push endpoint comes from a browser and the sending function POSTs to it: in AWS only an https
 * push service by name on port 443, so nobody can point the function at its own network.
 */
describe('pushEndpointAllowed', () => {
  it('accepts the push services browsers use', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
      'https://fcm.googleapis.com:443/fcm/send/abc',
    ])
      expect(pushEndpointAllowed(endpoint, false), endpoint).toBe(true);
  });

  it('refuses plain http, IP literals in any spelling, local names, other ports and credentials in AWS', () => {
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/push',
      'https://192.168.1.1/push',
      'https://172.16.0.1/push',
      'https://127.0.0.1/push',
      'https://0x7f.1/push',
      'https://2130706433/push',
      'https://[::1]/push',
      'https://[fd00::1]/push',
      'https://[fe80::1]/push',
      'https://[::ffff:169.254.169.254]/push',
      'https://8.8.8.8/push',
      'https://localhost/push',
      'https://push.localhost/push',
      'https://metadata.google.internal/push',
      'https://printer.local/push',
      'https://metadata/push',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://user:pw@fcm.googleapis.com/fcm/send/abc',
      'ftp://fcm.googleapis.com/x',
      'not a url',
      'http://127.0.0.1:45011/push/abc',
    ])
      expect(pushEndpointAllowed(endpoint, false), endpoint).toBe(false);
  });

  it('locally, also plain http to this machine (the push-service stand-in), and nowhere else', () => {
    expect(pushEndpointAllowed('http://127.0.0.1:45011/push/abc', true)).toBe(true);
    expect(pushEndpointAllowed('http://localhost:45011/push/abc', true)).toBe(true);
    expect(pushEndpointAllowed('http://10.0.0.5:45011/push/abc', true)).toBe(false);
    expect(pushEndpointAllowed('http://push.example.com/push/abc', true)).toBe(false);
    expect(pushEndpointAllowed('https://169.254.169.254/latest/meta-data/', true)).toBe(false);
  });
});
