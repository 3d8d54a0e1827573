import { describe, expect, it } from 'vitest';
import {
  decodeResetToken,
  encodeResetToken,
  forgotUserSchema,
  resetLink,
  resetUserSchema,
  signInUserSchema,
  signUpUserSchema,
} from './user';
import { profileEditSchema } from './profile';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? undefined : r.error?.issues[0]?.message);
const good = { firstName: 'Aroha', lastName: 'Ngata', email: 'a@farm.nz', phone: '021 123 4567', password: 'milk-vat-1' };

describe('sign-up validation (farmer spec §5)', () => {
  it.each([
    [{ ...good, firstName: ' ' }, 'Please enter your first name'],
    [{ ...good, lastName: '' }, 'Please enter your last name'],
    [{ ...good, email: 'not-an-email' }, 'Please enter a correct email address'],
    [{ ...good, email: '' }, 'Please enter a correct email address'],
    [{ ...good, phone: '' }, 'Please enter your phone number'],
    [{ ...good, phone: '0211234' }, 'Phone number at least 9'],
    [{ ...good, password: '' }, 'Please enter password'],
    [{ ...good, password: 'short' }, 'Password must be 8-50'],
    [{ ...good, password: 'x'.repeat(51) }, 'Password must be 8-50'],
  ])('%o -> %s', (input, message) => expect(firstMessage(signUpUserSchema.safeParse(input))).toBe(message));

  it.each(['<a href="https://evil.example/login">Verify here</a><!--', 'Tom & Jerry', 'Aroha2', 'Kiri"', 'a<b'])('refuses the name %s with the names message', (name) => {
    const message = 'Names may contain letters, spaces, hyphens and apostrophes.';
    expect(firstMessage(signUpUserSchema.safeParse({ ...good, firstName: name }))).toBe(message);
    expect(firstMessage(signUpUserSchema.safeParse({ ...good, lastName: name }))).toBe(message);
    expect(firstMessage(profileEditSchema.safeParse({ firstName: name, lastName: 'Ngata', phone: good.phone }))).toBe(message);
  });

  it.each(['Mere Te Kōhanga', 'Zoë O’Brien-Smith', "D'Arcy", 'J. R.', 'Đặng Thị', 'Ιωάννης', 'Дмитрий', '美咲'])('accepts the name %s', (name) => {
    expect(signUpUserSchema.safeParse({ ...good, firstName: name, lastName: name }).success).toBe(true);
    expect(profileEditSchema.safeParse({ firstName: name, lastName: name, phone: good.phone }).success).toBe(true);
  });

  it('keeps the length limit of a name', () => {
    expect(firstMessage(signUpUserSchema.safeParse({ ...good, firstName: 'a'.repeat(101) }))).toBe('Please enter your first name');
  });

  it('accepts a good form, trimming the email', () => {
    const r = signUpUserSchema.safeParse({ ...good, email: '  A@Farm.NZ ' });
    expect(r.success && r.data.email).toBe('A@Farm.NZ');
    expect(signUpUserSchema.safeParse({ ...good, password: 'x'.repeat(50) }).success).toBe(true);
    expect(signUpUserSchema.safeParse({ ...good, password: 'x'.repeat(8) }).success).toBe(true);
  });
});

describe('sign-in, forgot and reset validation', () => {
  it('needs a valid email and any password to sign in', () => {
    expect(firstMessage(signInUserSchema.safeParse({ email: 'x', password: 'p' }))).toBe('Please enter a correct email address');
    expect(firstMessage(signInUserSchema.safeParse({ email: 'a@b.nz', password: '' }))).toBe('Please enter password');
    expect(signInUserSchema.safeParse({ email: 'a@b.nz', password: 'p' }).success).toBe(true);
  });
  it('needs a valid email to ask for a reset', () => {
    expect(firstMessage(forgotUserSchema.safeParse({ email: 'nope' }))).toBe('Please enter a correct email address');
  });
  it('needs an 8-50 character password to reset', () => {
    expect(firstMessage(resetUserSchema.safeParse({ password: '', token: 't' }))).toBe('Please enter password');
    expect(firstMessage(resetUserSchema.safeParse({ password: 'short', token: 't' }))).toBe('Password must be 8-50');
  });
});

describe('reset-link token', () => {
  it('round-trips email and code, including non-ASCII emails', () => {
    for (const email of ['farmer@vatman.local', 'mere.wātene@farm.nz']) {
      expect(decodeResetToken(encodeResetToken(email, '123456'))).toEqual({ email, code: '123456' });
    }
  });
  it('leaves the code placeholder for Cognito to fill in', () => {
    expect(resetLink('https://vatman.example/', 'a@b.nz')).toMatch(/^https:\/\/vatman\.example\/dts\/password\/reset\/[\w-]+\.\{####\}$/);
  });
  it('rejects tampered or malformed tokens', () => {
    expect(decodeResetToken('garbage')).toBeUndefined();
    expect(decodeResetToken(`${encodeResetToken('a@b.nz', '123456')}x`)).toBeUndefined();
    expect(decodeResetToken('bm90LWFuLWVtYWls.123456')).toBeUndefined();
    expect(decodeResetToken('.123456')).toBeUndefined();
  });
});
