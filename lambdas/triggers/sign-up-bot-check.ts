import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { BOT_CHECK_FIELD, type BotCheck } from '../ports/bot-check';

/**
 * The pre-sign-up trigger: every self-service sign-up passes the bot-check, whether it
 * comes through USER_SIGN_UP or straight to Cognito's public SignUp (which skipped it before).
 * The answer is read from ValidationData (AWS) or ClientMetadata (both; cognito-local passes only
 * that). USER_SIGN_UP creates the account with AdminCreateUser (PreSignUp_AdminCreateUser) and
 * always names the answer, empty or not, so it is checked there; an administrator's AdminCreateUser
 * (IAM-authorized: the seed, the console) names none and is not asked, nor are external providers.
 * A refusal fails the sign-up with Cognito's UserLambdaValidationException, which carries the
 * bot-check's message.
 */
export const signUpBotCheck =
  (botCheck: BotCheck) =>
  async (event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> => {
    const answer = event.request.validationData?.[BOT_CHECK_FIELD] ?? event.request.clientMetadata?.[BOT_CHECK_FIELD];
    if (event.triggerSource === 'PreSignUp_SignUp' || (event.triggerSource === 'PreSignUp_AdminCreateUser' && answer !== undefined)) await botCheck.verify(answer ?? '');
    return event;
  };
