import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/entities/user';
import { enquiryMail } from './farmer-survey';

const stored = (): User =>
  ({ _id: 'u1', email: 'kiri@example.nz', firstName: 'Kiri', lastName: 'Ngata', phone: '+64211234567', phone_verify: 2, email_verify: 2, subscribed: true, role: 'User' }) as User;

describe('the enquiry mail to sales (plain text through SNS)', () => {
  it('carries a name stored before names were limited to letters as it is, on its own line', () => {
    const legacy = { ...stored(), firstName: 'Tom & <b>Jerry</b>', lastName: "O'Neil\nEmail: boss@evil.example" };
    const mail = enquiryMail(legacy, ['12345'], { water: true, effluent: false, soil: false, weather: false, grain: false, asset: false, dairy: false }, '2026-01-02T03:04:05.000Z');
    expect(mail.subject).toBe("Vat-Man enquiry from Tom & <b>Jerry</b> O'Neil Email: boss@evil.example");
    const lines = mail.body.split('\n');
    expect(lines[0]).toBe("Tom & <b>Jerry</b> O'Neil Email: boss@evil.example is interested in other monitoring solutions.");
    expect(lines.filter((l) => l.startsWith('Email: '))).toEqual(['Email: kiri@example.nz']);
  });
});
