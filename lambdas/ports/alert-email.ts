/** The email route's confirmation, as SNS reports it (GetSubscriptionAttributes' PendingConfirmation; gone: expired). */
export type AlertEmailStatus = 'pending' | 'confirmed' | 'expired';

/** Where a user's alerts go: their own topic, the email subscription on it and, with a verified phone, an SMS subscription. */
export interface AlertEmailRoute {
  /** The address the subscription was made for (the user record's email at the time). */
  readonly email: string;
  readonly topic_arn: string;
  readonly subscription_arn: string;
  readonly subscribed_at: string;
  /** The email subscription's confirmation when last read (absent: never read). */
  readonly status?: AlertEmailStatus;
  readonly checked_at?: string;
  /** The email subscription carries the `channel` filter policy (routes made before texts went through the topic do not). */
  readonly filtered?: boolean;
  /** The verified phone subscribed for texts, and its subscription. */
  readonly phone?: string;
  readonly sms_subscription_arn?: string;
}

/** The store of routes, one per user (Farms table, `USER#<sub>`/`ALERT_EMAIL`). */
export interface AlertEmailRoutes {
  getEmailRoute(userId: string): Promise<AlertEmailRoute | undefined>;
  putEmailRoute(userId: string, route: AlertEmailRoute): Promise<void>;
}

export interface EmailRecipient {
  readonly _id: string;
  readonly email: string;
  /** A verified phone (phone_verify 2) to subscribe for texts; absent: no SMS subscription. */
  readonly phone?: string;
}

/** Who a user's alerts go to: the address on their record, and their phone only once verified (phone_verify 2). */
export const alertRecipientOf = (user: { readonly _id: string; readonly email: string; readonly phone?: string; readonly phone_verify?: number }): EmailRecipient => ({
  _id: user._id,
  email: user.email,
  ...(user.phone && user.phone_verify === 2 ? { phone: user.phone } : {}),
});

/** What a send did: published (SNS's message id), or not sent because the address is not confirmed. */
export type SendResult = { readonly sent: true; readonly messageId?: string } | { readonly sent: false; readonly reason: 'unconfirmed' };

/** Options of each SNS call: a bound on how long it may take (the delivery lease outlives it). */
export interface CallOptions {
  readonly abortSignal?: AbortSignal;
}

/** The port the notifier sends through: one text to a user's verified phone, one email to a user. */
export interface AlertSender {
  sms(to: EmailRecipient & { readonly phone: string }, text: string, options?: CallOptions): Promise<SendResult>;
  email(to: EmailRecipient, subject: string, body: string, options?: CallOptions): Promise<SendResult>;
}

/**
 * Each user's alert topic (lambdas/adapters/sns/alert-email.ts): `ensure` brings its subscriptions
 * in line with the user record, `status` and `resend` serve the email route's confirmation, `email`
 * and `sms` publish to it.
 */
export interface AlertEmailTopics {
  ensure(user: EmailRecipient, options?: CallOptions): Promise<AlertEmailRoute>;
  status(user: EmailRecipient, options?: CallOptions): Promise<{ route: AlertEmailRoute; status: AlertEmailStatus }>;
  resend(user: EmailRecipient, options?: CallOptions): Promise<AlertEmailStatus>;
  email(user: EmailRecipient, subject: string, body: string, options?: CallOptions): Promise<SendResult>;
  sms(user: EmailRecipient & { readonly phone: string }, text: string, options?: CallOptions): Promise<SendResult>;
}
