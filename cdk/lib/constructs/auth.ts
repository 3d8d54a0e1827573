import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StringAttribute,
  UserPool,
  UserPoolClient,
  UserPoolEmail,
  type StandardAttributesMask,
  type UserPoolGroup,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { OPERATOR_GROUPS, TOTP_CONFIRMED_ATTRIBUTE, WEB_CLIENT_WRITE_ATTRIBUTES, type OperatorGroup } from '../../../shared/roles';
import { acknowledge } from '../nag';

/** CDK's names for Cognito's standard attributes the web client may write (the same list the local stand-in enforces). */
const MASK_OF: Record<(typeof WEB_CLIENT_WRITE_ATTRIBUTES)[number], keyof StandardAttributesMask> = {
  given_name: 'givenName',
  family_name: 'familyName',
};
const writableStandardAttributes = (): StandardAttributesMask => Object.fromEntries(WEB_CLIENT_WRITE_ATTRIBUTES.map((a) => [MASK_OF[a], true]));

interface AuthProps {
  /**
   * What happens to the user pool (every account) when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * Cognito: the user pool of farmers and operators, one group per operator role of spec §6
 * (a user in no group is a plain farmer) and the web app's client.
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly webClient: UserPoolClient;
  readonly groups: Readonly<Record<OperatorGroup, UserPoolGroup>>;
  /** The `iss` claim of the pool's tokens, as API Gateway's JWT authorizer and the Lambdas check it. */
  readonly issuer: string;
  /** Where the pool publishes the keys its tokens are signed with. */
  readonly jwksUri: string;

  constructor(scope: Construct, id: string, props: AuthProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      // Nothing is verified at sign-up: the /api/user Lambda creates the account confirmed
      // (AdminCreateUser and AdminSetUserPassword, so the spec's sign-up lands on the dashboard) and the email is verified
      // by the link USER_SIGN_UP then sends (GetUserAttributeVerificationCode); Cognito's own
      // sign-up code would only be a dead code in the farmer's inbox. The email cannot be changed in
      // the app (farmer §2.10), so there is no original address to keep while a new one is verified.
      autoVerify: { email: false, phone: false },
      standardAttributes: {
        email: { required: true, mutable: true },
        // Not `required`: Cognito can never change that after the pool exists, and the API's
        // sign-up schema already insists on them.
        givenName: { required: false, mutable: true },
        familyName: { required: false, mutable: true },
        phoneNumber: { required: false, mutable: true },
      },
      // When the API confirmed the person's authenticator app (Unix seconds): the pre-token-generation
      // trigger's claim, compared with each session's auth_time. Written by the API's role only.
      customAttributes: { [TOTP_CONFIRMED_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 20, mutable: true }) },
      passwordPolicy: {
        minLength: 8,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Operator roles must enrol an authenticator app (the API refuses them without one);
      // farmers may opt in. Software tokens only: no SMS codes to pay for or intercept.
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: FeaturePlan.ESSENTIALS,
      email: UserPoolEmail.withCognito(),
      // Cognito texts the phone's verification code (farmer §2.10) through SNS with its own role.
      enableSmsRole: true,
      deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      removalPolicy,
    });
    acknowledge(
      this.userPool.node.findChild('smsRole'),
      'IAM5[Resource::*]',
      "Cognito's own SMS role (the phone's verification code, farmer §2.10): sns:Publish to a phone number has no resource ARN, so IAM takes only \"*\"; the role is assumable by Cognito alone, with the pool's external id.",
    );
    acknowledge(
      this.userPool,
      'COG2',
      'MFA is OPTIONAL with authenticator apps (TOTP): the operator roles (Admin, Installer, MilkQuality, Westlands) must enrol one, enforced by the API from the pre-token-generation claim (403 without it); farmers may opt in (the spec has no MFA step for them: shared farm-office PCs and phones).',
    );
    acknowledge(
      this.userPool,
      'COG8',
      "Sign-in runs server-side in the /api/user Lambda (spec §7 protocol), so Plus-tier threat protection would judge risk from the Lambda's addresses rather than the farmer's and bills every monthly user; Essentials until the Lambda forwards UserContextData.",
    );

    this.groups = Object.fromEntries(
      OPERATOR_GROUPS.map((group) => [
        group,
        // The group name is the role the Lambdas read from the token's cognito:groups claim,
        // so it is fixed rather than generated.
        this.userPool.addGroup(group, { groupName: group, description: `Operator role ${group} (spec §6)` }),
      ]),
    ) as Record<OperatorGroup, UserPoolGroup>;

    this.webClient = this.userPool.addClient('WebClient', {
      // A browser cannot keep a secret.
      generateSecret: false,
      // SRP for Amplify in the browser; USER_PASSWORD for the /api/user Lambda's sign-in type.
      authFlows: { userPassword: true, userSrp: true },
      // No hosted UI: the app has its own sign-in pages.
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // Standard attributes only: the authenticator's confirmation time must come from the API.
      writeAttributes: new ClientAttributes().withStandardAttributes(writableStandardAttributes()),
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;
    this.jwksUri = `${this.issuer}/.well-known/jwks.json`;
  }
}
