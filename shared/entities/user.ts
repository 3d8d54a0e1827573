import * as z from 'zod';

/** 2 verified, 1 not (farmer spec §3 User). */
const verifyFlag = z.union([z.literal(1), z.literal(2)]);

/** A user's profile as stored and as the user call returns it (the password never). */
export const userSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.string(),
  is_herd_enabled: z.union([z.literal(0), z.literal(1)]),
  subscribed: z.boolean(),
  email_verify: verifyFlag,
  phone_verify: verifyFlag,
  created_at: z.string(),
  /** Opaque id for the herd site's token link (farmer §2.2); present when herd is enabled. */
  token_id: z.string().optional(),
  /** Demo-farm accounts show farm names instead of codes and no group link (farmer §6). */
  is_demo: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

/** Emails are stored trimmed and lower-cased so one person is one account. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Phones are stored in E.164 (SNS sends SMS only to E.164 numbers). New Zealand numbers are
 * the common case: a leading 0 becomes +64.
 */
export const normalisePhone = (phone: string, countryCode = '64'): string => {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return `+${digits.slice(1).replace(/\+/g, '')}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('0')) return `+${countryCode}${digits.slice(1)}`;
  return `+${digits}`;
};
