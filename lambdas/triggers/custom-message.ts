import { requireEnv } from '../lib/env';
import { createLogger } from '../lib/logger';
import { observe } from '../lib/observe';
import { customMessage } from './cognito-messages';

/** Cognito CustomMessage trigger entry (the user pool in AWS, cognito-local locally). */
export const handler = observe(createLogger({ function: 'custom-message' }), customMessage(requireEnv('WEB_URL')));
