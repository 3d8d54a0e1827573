/** The environment variable naming the prefix of every user's alert topic (CDK sets it per stack). */
export const ALERT_EMAIL_TOPIC_ARN_PREFIX_ENV = 'ALERT_EMAIL_TOPIC_ARN_PREFIX';

/** The environment variable naming the enquiry topic (CDK sets it; the local stack makes the topic). */
export const ENQUIRY_TOPIC_ARN_ENV = 'ENQUIRY_TOPIC_ARN';
