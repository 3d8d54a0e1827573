import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as path from 'node:path';
import { Construct } from 'constructs';
import { INSTALL_RECONCILER_PORTS } from '../../../lambdas/ports/function-ports';
import { REPO_ROOT } from '../paths';
import { grantPorts } from '../port-grants';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

interface InstallReconcilerProps {
  readonly data: Data;
  /** The IoT policy unit certificates carry (detached from a certificate it undoes or revokes). */
  readonly devicePolicyName: string;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

/** Minutes between reconciler runs: a stuck install is repaired within this (plus its lease) if the installer does not retry. */
const INSTALL_RECONCILER_RATE_MINUTES = 5;

/**
 * The install reconciler (lambdas/installer/reconcile-handler.ts; docs/decisions/040) on an
 * EventBridge schedule: finishes or undoes New Install and certificate-reissue runs whose
 * invocation stopped part way, so nothing stays half-made in IoT or the Farms table. Its ports:
 * the installer's records (Farms) and IoT provisioning. Runs may overlap (each run is taken by a
 * conditional write), so no reserved concurrency; EventBridge does not retry (the next run does).
 */
export class InstallReconciler extends Construct {
  readonly job: VatManFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: InstallReconcilerProps) {
    super(scope, id);
    this.job = new VatManFunction(this, 'Job', {
      entry: path.join(REPO_ROOT, 'lambdas', 'installer', 'reconcile-handler.ts'),
      description: 'Vat-Man install reconciler: finishes or undoes stuck New Install and certificate-reissue runs',
      // A handful of IoT and table calls per stuck run; a backlog after an IoT outage takes longer.
      timeout: Duration.minutes(2),
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    grantPorts(this.job, INSTALL_RECONCILER_PORTS, { data: props.data, devicePolicyName: props.devicePolicyName });
    this.schedule = new Rule(this, 'Schedule', {
      description: `Runs the Vat-Man install reconciler every ${INSTALL_RECONCILER_RATE_MINUTES} minutes`,
      schedule: Schedule.rate(Duration.minutes(INSTALL_RECONCILER_RATE_MINUTES)),
      targets: [new LambdaFunction(this.job.function, { retryAttempts: 0 })],
    });
  }
}
