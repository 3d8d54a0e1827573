import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  PriceClass,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { WebConfig } from '../../../shared/config';
import { contentSecurityPolicy } from '../../../shared/web/security-headers';
import { acknowledge, nagAssetBucketObjects, nagGetAtt } from '../nag';
import { SPA_FALLBACK_FUNCTION } from '../spa-fallback';

interface WebProps {
  /**
   * What happens to the buckets when they leave the stack. With DESTROY the buckets are also
   * emptied on delete (otherwise CloudFormation cannot remove a non-empty bucket).
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** The WAF web ACL (scope CLOUDFRONT, us-east-1) with the per-IP rate rule (constructs/edge-web-acl.ts). */
  readonly webAclArn: string;
  /**
   * How long S3 server access logs and CloudFront standard logs are kept.
   * @default Duration.days(90)
   */
  readonly accessLogExpiry?: Duration;
}

/** The file the web app reads at start (shared/web-config.ts). */
const WEB_CONFIG_FILE = 'config.json';

/**
 * The web app: a private S3 bucket served only through CloudFront (origin access control), with
 * the single-page-app fallback so deep links like /farmer/dashboard load index.html.
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`: the site's address, and the API's under `/api/` (constructs/api-edge.ts). */
  readonly url: string;
  private readonly props: WebProps;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    this.props = props;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const autoDeleteObjects = removalPolicy === RemovalPolicy.DESTROY;

    this.logBucket = new Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging writes through an ACL grant, so ACLs must stay enabled here.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: props.accessLogExpiry ?? Duration.days(90) }],
      removalPolicy,
      autoDeleteObjects,
    });
    acknowledge(
      this.logBucket,
      'S1',
      'This is the access-log bucket of the site bucket and the distribution; logging it into itself would loop, and into another bucket would only move the question.',
    );

    this.bucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/site/',
      removalPolicy,
      autoDeleteObjects,
    });

    // Cognito's host by pattern. The API (`/api/*`) and the live socket (`/live`) are on this distribution: 'self'. Same policy as
    // the local static server (shared/web).
    const region = Stack.of(this).region;
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Vat-Man web app: CSP, HSTS, nosniff, frame denial, referrer policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy({
            cognito: [`https://cognito-idp.${region}.amazonaws.com`],
            // The live-updates WebSocket is this distribution's /live (constructs/live.ts): 'self',
            // which CSP Level 3 browsers match for wss: on the same host. A browser that does not
            // refuses the socket, and the dashboard falls back to its 2-minute refresh.
          }),
          override: true,
        },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });

    const spaFallback = new EdgeFunction(this, 'SpaFallback', {
      comment: 'Vat-Man web app: deep links get index.html',
      code: FunctionCode.fromInline(SPA_FALLBACK_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Vat-Man web app',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      webAclId: props.webAclArn,
      // Farms are in New Zealand, whose edge locations are only in the "All" price class.
      priceClass: PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    acknowledge(
      this.distribution,
      'CFR4',
      'No custom domain is configured, so the distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum protocol at TLSv1; a custom domain with an ACM certificate would allow TLSv1.2_2021.',
    );
    acknowledge(
      this.distribution,
      'CFR1',
      'No geo restriction: the site serves farmers and operators wherever they travel, and every request for data is authorized by the API.',
    );
  }

  /**
   * Uploads the web build and the runtime `config.json` beside it, then invalidates the
   * distribution so browsers get the new version.
   */
  deploySite(build: ISource, config: WebConfig): BucketDeployment {
    const removalPolicy = this.props.removalPolicy ?? RemovalPolicy.RETAIN;
    const logGroup = new LogGroup(this, 'DeploymentLogs', {
      retention: this.props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy,
    });
    // An own role instead of the default one with the AWS managed AWSLambdaBasicExecutionRole:
    // the deployment Lambda may write to its own log group only.
    const role = new Role(this, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the web build into the site bucket and invalidates the distribution',
    });
    logGroup.grantWrite(role);

    const deployment = new BucketDeployment(this, 'Deployment', {
      sources: [build, Source.jsonData(WEB_CONFIG_FILE, config)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      // Remove files of earlier builds (their hashed names change every build).
      prune: true,
      memoryLimit: 512,
      role,
      logGroup,
    });
    deployment.node.addDependency(role);
    this.acknowledgeDeployment(role, deployment);
    return deployment;
  }

  /** The findings on aws-cdk-lib's BucketDeployment, which owns these statements and the handler. */
  private acknowledgeDeployment(role: Role, deployment: BucketDeployment): void {
    const bucketArn = nagGetAtt(this.bucket, 'Arn');
    const readGrant =
      "Part of aws-cdk-lib BucketDeployment's read grant, on the CDK asset bucket (to fetch the build zip) and the site bucket (to sync it) only.";
    const writeGrant =
      "Part of aws-cdk-lib BucketDeployment's write grant on the site bucket only: abort multipart uploads, delete files of earlier builds (prune).";
    const grants: readonly [finding: string, reason: string][] = [
      ['Action::s3:GetBucket*', readGrant],
      ['Action::s3:GetObject*', readGrant],
      ['Action::s3:List*', readGrant],
      ['Action::s3:Abort*', writeGrant],
      ['Action::s3:DeleteObject*', writeGrant],
      [
        `Resource::${nagAssetBucketObjects(this)}`,
        "Read-only: the build zip's key in the CDK bootstrap asset bucket is a content hash decided when assets are published.",
      ],
      [`Resource::${bucketArn}/*`, 'Every object of the site bucket is replaced on deploy; the wildcard stays inside that bucket.'],
      [
        'Resource::*',
        'BucketDeployment grants cloudfront:CreateInvalidation/GetInvalidation on "*"; its handler only invalidates the DistributionId it is given (this distribution).',
      ],
    ];
    for (const [finding, reason] of grants) acknowledge(role, `IAM5[${finding}]`, reason);

    // The handler is a stack-level singleton shared by every BucketDeployment with this memory size.
    const handler = Stack.of(this).node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!handler) throw new Error(`No BucketDeployment handler found for ${deployment.node.path}`);
    acknowledge(
      handler,
      'L1',
      "BucketDeployment's handler runtime (Python 3.13 in aws-cdk-lib 2.276) is chosen by aws-cdk-lib and moves with it; it runs only during deployments and never sees user traffic.",
    );
  }
}
