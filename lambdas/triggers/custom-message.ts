import { requireEnv } from '../lib/env';
import { customMessage } from './reset-email';

/** Cognito CustomMessage trigger entry (the user pool in AWS, cognito-local locally). */
export const handler = customMessage(requireEnv('WEB_URL'));
