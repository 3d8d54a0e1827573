import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as path from 'node:path';
import { Construct } from 'constructs';
import { WATCHMAN_PORTS } from '../../../lambdas/ports/function-ports';
import { REPO_ROOT } from '../paths';
import { grantPorts } from '../port-grants';
import type { Data } from './data';
import { VatManFunction } from './vat-man-function';

interface WatchmanProps {
  readonly data: Data;
  /**
   * Minutes between runs (`-c watchmanRateMinutes`).
   * @default 60
   */
  readonly rateMinutes?: number;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: RetentionDays;
}

/**
 * Watchman: lambdas/watchman/handler.ts on an EventBridge schedule. It reads farms,
 * devices, dockets and its settings and writes runs, cases and the farms' sync flag (Farms), and
 * reads the vats' messages and activities and keeps its hourly digests of them (Readings). One execution at a time (reserved
 * concurrency 1) on top of its lease in DynamoDB; EventBridge does not retry a failed run (the
 * next one comes within the hour).
 */
export class Watchman extends Construct {
  readonly job: VatManFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: WatchmanProps) {
    super(scope, id);
    const rate = props.rateMinutes ?? 60;
    if (!Number.isInteger(rate) || rate < 1) throw new Error(`watchmanRateMinutes must be a whole number of minutes, at least 1, not ${rate}`);
    this.job = new VatManFunction(this, 'Job', {
      entry: path.join(REPO_ROOT, 'lambdas', 'watchman', 'handler.ts'),
      description: 'Vat-Man Watchman: fault checks, calibration, dairy-company sync switching and cases for every watched farm',
      // 10,000 farms in about a minute (bench/watchman.ts); the timeout leaves room for a slow table.
      timeout: Duration.minutes(5),
      memorySize: 1024,
      reservedConcurrentExecutions: 1,
      removalPolicy: props.removalPolicy,
      logRetention: props.logRetention,
    });
    // Farms read/write, Readings read/write (its hourly digests W#<device> beside the messages),
    // Alerts read (the plate-cooling check's 'Milk warm plate' alerts): from its ports.
    grantPorts(this.job, WATCHMAN_PORTS, { data: props.data });
    this.schedule = new Rule(this, 'Schedule', {
      description: `Runs Vat-Man Watchman every ${rate} minutes`,
      schedule: Schedule.rate(Duration.minutes(rate)),
      targets: [new LambdaFunction(this.job.function, { retryAttempts: 0 })],
    });
  }
}
