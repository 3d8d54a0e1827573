import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable, type IPrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { acknowledge, nagGetAtt } from '../nag';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../../../lambdas/ports/metric-names';
import type { DataTable } from './data';
import { powertoolsLayer, POWERTOOLS_LAYER_MODULES } from './powertools-layer';

/**
 * The DynamoDB actions a function may take on a table, named one by one: CDK's grantReadData and
 * grantReadWriteData would also give Scan, DeleteItem and the stream reads whatever the code does.
 */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'Scan' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem';

interface VatManFunctionProps {
  /** Absolute path of the TypeScript entry file; it exports `handler`. */
  readonly entry: string;
  /** Shown in the console next to the function's generated name. */
  readonly description: string;
  /**
   * HTTP API waits at most 30 s for an integration; our handlers make a handful of DynamoDB
   * calls, so 10 s only trips on a real hang.
   * @default Duration.seconds(10)
   */
  readonly timeout?: Duration;
  /**
   * Lambda's CPU share grows with memory; 512 MB keeps cold starts of the bundled handlers short.
   * @default 512
   */
  readonly memorySize?: number;
  /**
   * Concurrent executions reserved for (and capping) the function; 1 for a job that must not overlap itself (Watchman, the alert sweep).
   * @default none (the account's unreserved pool)
   */
  readonly reservedConcurrentExecutions?: number;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /**
   * What happens to the log group when the function leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /** Extra environment variables; tables are added with `bindTable`. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Node.js options beside --enable-source-maps (NODE_OPTIONS), e.g. V8's heap sizes. */
  readonly nodeOptions?: readonly string[];
  /**
   * X-Ray tracing Active (the API's functions and the ingest: lambdas/lib/tracing.ts); the
   * scheduled jobs and the triggers are left untraced.
   * @default false
   */
  readonly tracing?: boolean;
  /**
   * Powertools' log level (POWERTOOLS_LOG_LEVEL).
   * @default 'INFO'
   */
  readonly logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

/**
 * What every function tells Powertools (lambdas/lib/logger.ts, metrics.ts, tracing.ts): one service
 * name for the log lines and the metrics' `service` dimension, the metrics' one namespace, the level.
 */
const powertoolsEnvironment = (logLevel: NonNullable<VatManFunctionProps['logLevel']> = 'INFO') => ({
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
  POWERTOOLS_LOG_LEVEL: logLevel,
});

/**
 * How every handler is bundled (esbuild through NodejsFunction); `npm run bench` bundles the same
 * way to print each bundle's size and module init time. Left out of the bundle: `@aws-sdk/*`, as
 * the runtime provides it (NodejsFunction's own default, restated because giving externalModules
 * replaces it); Powertools and the X-Ray SDK, as every function has Powertools' public layer
 * (powertools-layer.ts: AWS's recommended way, and what keeps each bundle within 300 KB); mqtt, as
 * only the local stack publishes device commands over MQTT (lambdas/adapters/iot/device-commands.ts
 * imports it when MQTT_URL is set, never in AWS). The local stack and the tests run the sources
 * with node_modules, so they load the same Powertools packages from there.
 *
 * CommonJS, not ESM (module init ≤ 100 ms): each entry loads its handler's modules by a
 * dynamic import on first use (lambdas/lib/lazy-handler.ts). In one CommonJS file esbuild keeps
 * those modules lazy, their `require` of the AWS SDK included; an ESM file hoists every import of
 * an external package to its top, so the SDK clients (100-300 ms each) would load at init
 * whatever the handler uses, and NodejsFunction writes one file, so ESM code splitting is not on offer.
 */
export const HANDLER_BUNDLING = {
  format: 'cjs',
  target: 'node22',
  minify: true,
  // Prefer the ESM build of dependencies that ship both (esbuild turns it into CommonJS).
  mainFields: ['module', 'main'],
  external: ['@aws-sdk/*', ...POWERTOOLS_LAYER_MODULES, 'mqtt'],
} as const;
/**
 * A Node.js Lambda with the project's defaults in one place (the style of Powertools'
 * `FunctionWithLogGroup`): newest Node.js runtime, arm64, CommonJS bundle with source maps, its own log
 * group with a retention, and a role that may write to that log group only (instead of the
 * AWS managed AWSLambdaBasicExecutionRole, which allows every log group in the account).
 */
export class VatManFunction extends Construct implements IGrantable {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;
  /** The TypeScript entry it bundles: `npm run bench` measures the bundle of every function found in the stack by this. */
  readonly entry: string;

  constructor(scope: Construct, id: string, props: VatManFunctionProps) {
    super(scope, id);
    this.entry = props.entry;

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });

    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
    });
    // The log group exists before the function, so CreateLogGroup is not needed.
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      // The newest managed Node.js runtime (cdk-nag AwsSolutions-L1). The bundle targets node22
      // so the same code also runs on the local Node.js used by the local stack and the tests.
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: props.timeout ?? Duration.seconds(10),
      memorySize: props.memorySize ?? 512,
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      // Active: Lambda samples the invocations and the role gets X-Ray's two write actions (CDK adds them).
      ...(props.tracing ? { tracing: Tracing.ACTIVE } : {}),
      role: this.role,
      logGroup: this.logGroup,
      // Powertools (Logger, Metrics, Tracer with the X-Ray SDK), left out of the bundle (HANDLER_BUNDLING).
      layers: [powertoolsLayer(this)],
      environment: {
        // Stack traces point at the TypeScript sources instead of the minified bundle.
        NODE_OPTIONS: ['--enable-source-maps', ...(props.nodeOptions ?? [])].join(' '),
        ...powertoolsEnvironment(props.logLevel),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.CJS,
        target: HANDLER_BUNDLING.target,
        minify: HANDLER_BUNDLING.minify,
        sourceMap: true,
        mainFields: [...HANDLER_BUNDLING.mainFields],
        externalModules: [...HANDLER_BUNDLING.external],
      },
    });
    // The log group's write grant must exist before the first invocation writes logs.
    this.function.node.addDependency(this.role);
    if (props.tracing) {
      acknowledge(this.role, 'IAM5[Resource::*]', 'X-Ray PutTraceSegments and PutTelemetryRecords (added by CDK for tracing Active) have no resource-level permissions: the resource must be *.');
    }
  }

  get grantPrincipal(): IPrincipal {
    return this.function.grantPrincipal;
  }

  addEnvironment(key: string, value: string): this {
    this.function.addEnvironment(key, value);
    return this;
  }

  /**
   * Grants the function access to a table and hands it the table's name in the environment
   * variable named by the table definition (for example FARMS_TABLE), so the two never diverge.
   */
  bindTable({ table, definition }: DataTable, actions: readonly TableAction[]): this {
    const sorted = [...new Set(actions)].sort();
    // Only a Query can use an index: the index ARNs are granted to functions that query.
    const indexes = definition.globalSecondaryIndexes.length > 0 && sorted.includes('Query');
    if (sorted.length) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions: sorted.map((a) => `dynamodb:${a}`), resources: [table.tableArn, ...(indexes ? [`${table.tableArn}/index/*`] : [])] }),
      );
    }
    this.addEnvironment(definition.envVar, table.tableName);

    if (indexes) {
      // The grant covers `<table arn>/index/*` so queries on the table's GSIs work; the wildcard
      // is confined to this one table's indexes.
      acknowledge(
        this.role,
        `IAM5[Resource::${nagGetAtt(table, 'Arn')}/index/*]`,
        `Queries on the ${definition.id} table's global secondary indexes need the index ARNs; the wildcard covers only that table's indexes.`,
      );
    }
    return this;
  }
}
