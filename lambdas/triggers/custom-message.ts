import { requireEnv } from '../lib/env';
import { customMessage } from './cognito-messages';

/** Cognito CustomMessage trigger entry (the user pool in AWS, cognito-local locally). */
export const handler = customMessage(requireEnv('WEB_URL'));
