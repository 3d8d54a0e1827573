import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { BOT_CHECK_FIELD, type BotCheck } from '../ports/bot-check';

/**
 * The pre-sign-up trigger (issue 13): every self-service sign-up passes the bot-check, whether it
 * comes through USER_SIGN_UP or straight to Cognito's public SignUp (which skipped it before).
 * The answer is read from ValidationData (AWS) or ClientMetadata (both; cognito-local passes only
 * that). Accounts an administrator creates (PreSignUp_AdminCreateUser, IAM-authorized: the seed,
 * the console) and external providers are not asked. A refusal fails the SignUp with Cognito's
 * UserLambdaValidationException, which carries the bot-check's message.
 */
export const signUpBotCheck =
  (botCheck: BotCheck) =>
  async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
    if (event.triggerSource !== 'PreSignUp_SignUp') return event;
    const answer = event.request.validationData?.[BOT_CHECK_FIELD] ?? event.request.clientMetadata?.[BOT_CHECK_FIELD] ?? '';
    await botCheck.verify(answer);
    return event;
  };
