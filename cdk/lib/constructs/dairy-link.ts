import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as path from 'node:path';
import { Construct } from 'constructs';
import { DAIRY_SYNC_PORTS } from '../../../lambdas/ports/function-ports';
import { REPO_ROOT } from '../paths';
import { grantPorts } from '../port-grants';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

/** How often the dairy-company sync runs: events are due a minute after they are detected. */
const DAIRY_SYNC_RATE = Duration.minutes(1);

interface DairyLinkProps {
  readonly data: Data;
  /** The dairy company's gateway base URL (`-c dairyGatewayUrl`, or an SSM parameter's value at deploy). */
  readonly gatewayUrl: string;
  /** The SSM SecureString holding the gateway's bearer token (read by the function at first use). */
  readonly tokenParameterName: string;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

/**
 * The dairy-company link: the sync function (lambdas/dairy/sync-handler.ts) every
 * minute. It reads activities (Readings) and exception notifications (Alerts), raises alert 702
 * (Alerts), and keeps its
 * queue of events and the dockets in the Farms table; it reads the gateway's token from SSM.
 */
export class DairyLink extends Construct {
  readonly sync: VatManFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: DairyLinkProps) {
    super(scope, id);
    this.sync = new VatManFunction(this, 'Sync', {
      entry: path.join(REPO_ROOT, 'lambdas', 'dairy', 'sync-handler.ts'),
      description: 'Vat-Man dairy-company link: milking, collection and exception events out, tanker dockets in',
      // A run sends what is due and stops trying a gateway that does not answer; well inside the rate.
      timeout: Duration.seconds(50),
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    // Alerts read/write: exception notifications to send, and alert 702 (vat reading differs from
    // tanker); the gateway's URL and token parameter with its dairyGateway port.
    grantPorts(this.sync, DAIRY_SYNC_PORTS, { data: props.data, dairyGateway: { url: props.gatewayUrl, tokenParameterName: props.tokenParameterName } });
    this.schedule = new Rule(this, 'SyncSchedule', {
      description: 'Runs the Vat-Man dairy-company sync every minute',
      schedule: Schedule.rate(DAIRY_SYNC_RATE),
      targets: [new LambdaFunction(this.sync.function, { retryAttempts: 0 })],
    });
  }
}
