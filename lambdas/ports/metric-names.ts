/** The custom CloudWatch metrics' names (lambdas/lib/metrics.ts writes them, cdk/lib/constructs/operator-alarms.ts alarms on them). */
export const METRICS_NAMESPACE = 'VatMan';

/** Alert deliveries that ended in the dead-letter state (the delivery queue gave up on them). */
export const DELIVERY_DEAD_LETTERS = 'DeliveryDeadLetters';

/** Dairy-company events the gateway refused (a verdict on the event: they wait for an operator's resend). */
export const DAIRY_EVENTS_REFUSED = 'DairyEventsRefused';

/** Tries the dairy-company gateway answered 401/403: its token in SSM is expired or was rotated without the parameter. */
export const DAIRY_TOKEN_REFUSED = 'DairyTokenRefused';
