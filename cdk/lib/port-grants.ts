import { Stack } from 'aws-cdk-lib';
import { type Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { ENQUIRY_TOPIC_ARN_ENV } from '../../lambdas/ports/env-names';
import { INGEST_DEAD_LETTERS_URL_ENV } from '../../lambdas/ports/fleet';
import { LIVE_ENDPOINT_ENV } from '../../shared/live/endpoint-env';
import { UNIT_THING_PREFIX } from '../../shared/entities/install';
import type { TableDefinition } from '../../shared/data/tables';
import type { PortName } from '../../lambdas/ports/action-ports';
import type { Data } from './constructs/data';
import type { Alerts } from './constructs/alerts';
import type { TableAction, VatManFunction } from './constructs/vat-man-function';
import { acknowledge, nagPseudo } from './nag';
import { PUSH_ENV } from '../../lambdas/ports/push';

import { PORT_GRANTS, type PushGrantConfig } from './port-grant-table';

export { PORT_GRANTS, type PushGrantConfig };

/** Grants a function what its ports need; answers whether it sends device commands (the caller adds that grant). */
export const grantPorts = (
  fn: VatManFunction,
  ports: readonly PortName[],
  {
    data,
    userPoolArn,
    botCheckSecret,
    enquiryTopic,
    devicePolicyName,
    alertTopics,
    liveApi,
    dairyGateway,
    cognitoPolicy,
    ingestDeadLetters,
    push,
  }: {
    data: Data;
    userPoolArn?: string;
    botCheckSecret?: { name: string; arn: string };
    enquiryTopic?: ITopic;
    devicePolicyName?: string;
    alertTopics?: Pick<Alerts, 'grantEmailRoutes' | 'grantPublish'>;
    /** The dairy company's gateway (cdk/lib/constructs/dairy-link.ts): its URL and the SSM parameter of its token. */
    dairyGateway?: { readonly url: string; readonly tokenParameterName: string };
    /**
     * Where the Cognito statement goes instead of the role's default policy: a trigger's must be a
     * policy of its own, else the pool would wait on the role's policy and the policy on the pool.
     */
    cognitoPolicy?: Policy;
    /** The live-updates WebSocket API (cdk/lib/constructs/live.ts): its @connections ARN and management endpoint. */
    liveApi?: { readonly connectionsArn: string; readonly nagConnectionsArn: string; readonly endpoint: string };
    /** The ingest's dead-letter queue (cdk/lib/constructs/telemetry.ts), for the ports that count it. */
    ingestDeadLetters?: IQueue;
    /** Web Push: the VAPID public key, the SSM parameter of its private key, the subject, and where acknowledgements go. */
    push?: PushGrantConfig;
  },
): { deviceCommands: boolean; unitChecks: boolean } => {
  const grants = ports.flatMap((p) => PORT_GRANTS[p]);
  // One statement per table: the union of the actions its ports send on the whole table.
  const tables = new Map<TableDefinition['id'], Set<TableAction>>();
  for (const g of grants) if (g.kind === 'table') tables.set(g.table, new Set([...(tables.get(g.table) ?? []), ...g.actions]));
  for (const [id, actions] of tables) fn.bindTable(data.table(id), [...actions]);
  // Key-confined writes, one statement per table, condition and actions, leaving out what the whole-table grant already gives.
  const confined = new Map<string, { table: TableDefinition['id']; operator: string; values: Set<string>; actions: readonly string[] }>();
  for (const g of grants) {
    if (g.kind !== 'tableKeys') continue;
    const actions = (g.actions ?? ['PutItem']).filter((a) => !tables.get(g.table)?.has(a)).sort();
    if (!actions.length) continue;
    const [operator, value] = 'prefix' in g.key ? ['ForAllValues:StringLike', `${g.key.prefix}*`] : ['ForAllValues:StringEquals', g.key.equals];
    const id = `${g.table} ${operator} ${actions.join(' ')}`;
    const entry = confined.get(id) ?? { table: g.table, operator, values: new Set<string>(), actions };
    entry.values.add(value);
    confined.set(id, entry);
  }
  for (const { table: id, operator, values, actions } of confined.values()) {
    const { table, definition } = data.table(id);
    // The name, as bindTable gives it (a port whose only grant is tableKeys still needs it).
    fn.addEnvironment(definition.envVar, table.tableName);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: actions.map((a) => `dynamodb:${a}`),
        resources: [table.tableArn],
        conditions: { [operator]: { 'dynamodb:LeadingKeys': [...values].sort() } },
      }),
    );
  }
  for (const g of grants) {
    if (g.kind !== 'accountWide') continue;
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: [...g.actions], resources: ['*'] }));
    acknowledge(fn.role, 'IAM5[Resource::*]', g.why);
  }
  if (botCheckSecret && grants.some((g) => g.kind === 'botCheckSecret')) {
    // Read at run time (lambdas/adapters/bot-check): the secret is never in the environment.
    fn.addEnvironment('RECAPTCHA_SECRET_PARAMETER', botCheckSecret.name);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [botCheckSecret.arn] }));
  }
  if (grants.some((g) => g.kind === 'enquiryTopic')) {
    if (!enquiryTopic) throw new Error(`${fn.node.path}: a port mails the sales address but the stack gave no enquiry topic`);
    fn.addEnvironment(ENQUIRY_TOPIC_ARN_ENV, enquiryTopic.topicArn);
    enquiryTopic.grantPublish(fn.role);
  }
  if (grants.some((g) => g.kind === 'alertPublish')) {
    if (!alertTopics) throw new Error(`${fn.node.path}: a port sends alerts but the stack gave no alert topics`);
    alertTopics.grantPublish(fn);
  } else if (grants.some((g) => g.kind === 'alertRoutes')) {
    if (!alertTopics) throw new Error(`${fn.node.path}: a port manages alert routes but the stack gave no alert topics`);
    alertTopics.grantEmailRoutes(fn);
  }
  if (grants.some((g) => g.kind === 'dairyGateway')) {
    if (!dairyGateway) throw new Error(`${fn.node.path}: a port calls the dairy gateway but the stack gave none`);
    // The token is read at run time (lambdas/adapters/dairy-company): never in the environment.
    fn.addEnvironment('DAIRY_GATEWAY_URL', dairyGateway.url);
    fn.addEnvironment('DAIRY_GATEWAY_TOKEN_PARAMETER', dairyGateway.tokenParameterName);
    const parameter = Stack.of(fn).formatArn({ service: 'ssm', resource: 'parameter', resourceName: dairyGateway.tokenParameterName.replace(/^\//, '') });
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter] }));
  }
  if (grants.some((g) => g.kind === 'pushVapid' || g.kind === 'pushPublicKey')) {
    if (!push) throw new Error(`${fn.node.path}: a port uses Web Push but the stack gave no VAPID configuration`);
    fn.addEnvironment(PUSH_ENV.publicKey, push.publicKey);
  }
  if (push && grants.some((g) => g.kind === 'pushVapid')) {
    // The private key is read at run time (lambdas/adapters/push): never in the environment.
    fn.addEnvironment(PUSH_ENV.privateKeyParameter, push.privateKeyParameterName);
    fn.addEnvironment(PUSH_ENV.subject, push.subject);
    fn.addEnvironment(PUSH_ENV.ackUrl, push.ackUrl);
    const parameter = Stack.of(fn).formatArn({ service: 'ssm', resource: 'parameter', resourceName: push.privateKeyParameterName.replace(/^\//, '') });
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameter] }));
  }
  if (grants.some((g) => g.kind === 'iotProvisioning')) {
    if (!devicePolicyName) throw new Error(`${fn.node.path}: a port provisions units but the stack gave no device policy`);
    fn.addEnvironment('IOT_DEVICE_POLICY', devicePolicyName);
    const stack = Stack.of(fn);
    const thing = stack.formatArn({ service: 'iot', resource: 'thing', resourceName: `${UNIT_THING_PREFIX}*` });
    const cert = stack.formatArn({ service: 'iot', resource: 'cert', resourceName: '*' });
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        // ListThingPrincipals: a reissue revokes every certificate on the unit's thing but the new one.
        actions: ['iot:CreateThing', 'iot:UpdateThing', 'iot:DeleteThing', 'iot:AttachThingPrincipal', 'iot:DetachThingPrincipal', 'iot:ListThingPrincipals'],
        resources: [thing],
      }),
    );
    // IAM names a certificate only by its id (cert/<id>), which IoT makes at CreateKeysAndCertificate,
    // and a device certificate takes no tags, so there is no aws:ResourceTag to confine these to the
    // installer's own: the account's cert/* is as narrow as IAM allows. AttachPolicy and DetachPolicy
    // are authorized on their target (a certificate or thing group) alone: IAM has no resource or
    // condition key for the policy attached, so naming the device policy's ARN here would confine
    // nothing. The code attaches only IOT_DEVICE_POLICY, deletes only the certificate its own run
    // made (recorded on the run), and deactivates only certificates on a unit thing it reissues for.
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['iot:UpdateCertificate', 'iot:DeleteCertificate', 'iot:AttachPolicy', 'iot:DetachPolicy'], resources: [cert] }));
    const [partition, region, account] = [stack.partition, stack.region, stack.account].map((v) => nagPseudo(stack, v));
    acknowledge(
      fn.role,
      `IAM5[Resource::arn:${partition}:iot:${region}:${account}:thing/${UNIT_THING_PREFIX}*]`,
      'A new install names its unit thing from the IMEI the installer enters: the wildcard is the IMEI only, and only unit things (unit-<imei>) match.',
    );
    acknowledge(
      fn.role,
      `IAM5[Resource::arn:${partition}:iot:${region}:${account}:cert/*]`,
      'A certificate id is made by IoT at CreateKeysAndCertificate time, so it cannot be named beforehand, and device certificates take no tags (no aws:ResourceTag condition): IAM cannot confine UpdateCertificate, DeleteCertificate, AttachPolicy or DetachPolicy below every certificate of the account, nor AttachPolicy to one policy (it is authorized on the target alone). The code attaches only the device policy; an undo deactivates and deletes only the certificate its own run made, and a reissue deactivates only the certificates on the thing of the unit it reissues for.',
    );
  }
  if (grants.some((g) => g.kind === 'unitCheckCommands')) {
    const stack = Stack.of(fn);
    const checkTopic = `dts/${UNIT_THING_PREFIX}*/cmd/check`;
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['iot:Publish'], resources: [stack.formatArn({ service: 'iot', resource: 'topic', resourceName: checkTopic })] }));
    const [partition, region, account] = [stack.partition, stack.region, stack.account].map((v) => nagPseudo(stack, v));
    acknowledge(
      fn.role,
      `IAM5[Resource::arn:${partition}:iot:${region}:${account}:topic/${checkTopic}]`,
      'The installer names the farm at run time: the wildcard is the IMEI only, the topic is confined to check commands of unit things, and the device policy lets each unit read only its own.',
    );
  }
  if (grants.some((g) => g.kind === 'liveConnections')) {
    if (!liveApi) throw new Error(`${fn.node.path}: a port posts to WebSocket connections but the stack gave no live-updates API`);
    fn.addEnvironment(LIVE_ENDPOINT_ENV, liveApi.endpoint);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: [liveApi.connectionsArn] }));
    acknowledge(fn.role, `IAM5[Resource::${liveApi.nagConnectionsArn}]`, 'A connection id is made by API Gateway when a browser connects: the wildcard is the connection id only, on this stage of the live-updates API alone.');
  }
  if (grants.some((g) => g.kind === 'deadLetterQueue')) {
    if (!ingestDeadLetters) throw new Error(`${fn.node.path}: a port counts the ingest's dead letters but the stack gave no queue`);
    fn.addEnvironment(INGEST_DEAD_LETTERS_URL_ENV, ingestDeadLetters.queueUrl);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: [ingestDeadLetters.queueArn] }));
  }
  const cognito = [...new Set(grants.flatMap((g) => (g.kind === 'cognito' ? g.actions : [])))].sort();
  if (cognito.length) {
    if (!userPoolArn) throw new Error(`${fn.node.path}: a port calls Cognito but the stack gave no user pool`);
    const statement = new PolicyStatement({ actions: cognito, resources: [userPoolArn] });
    if (cognitoPolicy) cognitoPolicy.addStatements(statement);
    else fn.role.addToPrincipalPolicy(statement);
  }
  return { deviceCommands: grants.some((g) => g.kind === 'deviceCommands'), unitChecks: grants.some((g) => g.kind === 'unitCheckCommands') };
};
