import { Duration, Fn, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  CacheCookieBehavior,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_HEADER } from '../../../lambdas/lib/origin-check';
import { acknowledge } from '../nag';

export interface ApiEdgeProps {
  readonly httpApi: HttpApi;
  /** The WAF web ACL (scope CLOUDFRONT, us-east-1) with the per-IP rate rule (constructs/edge-web-acl.ts). */
  readonly webAclArn: string;
  readonly logBucket: IBucket;
  /** Added to every request as ORIGIN_HEADER; the API refuses requests without it (lambdas/lib/origin-check.ts). */
  readonly originSecret: ISecret;
}

/**
 * The API behind CloudFront (issue 13): HTTP APIs cannot take a WAF web ACL (WAF protects REST
 * APIs, CloudFront, ALB, AppSync, Cognito…), so the web app calls the API through this
 * distribution, which carries the web ACL with the per-IP rate rule. Nothing is cached: every
 * request (POST) goes to the API, with the bearer (Authorization is in the cache key, as CloudFront
 * requires to forward it) and every other viewer header but Host. It adds the origin secret's
 * header, without which the API's Lambdas answer 403, so the execute-api address cannot be used to
 * go around the WAF.
 */
export class ApiEdge extends Construct {
  readonly distribution: Distribution;
  /** The API's address for the web app, e.g. `https://d123.cloudfront.net`. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    const domain = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    const cachePolicy = new CachePolicy(this, 'NoCache', {
      comment: 'Vat-Man API: never cached; the bearer reaches the API',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Vat-Man API (${Stack.of(this).stackName})`,
      defaultBehavior: {
        origin: new HttpOrigin(domain, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          // Proof the request passed the WAF: a viewer's own header of that name is replaced.
          customHeaders: { [ORIGIN_HEADER]: props.originSecret.secretValue.unsafeUnwrap() },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      webAclId: props.webAclArn,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront-api/',
    });
    this.url = `https://${this.distribution.distributionDomainName}`;
    acknowledge(
      this.distribution,
      'CFR4',
      'No custom domain is configured, so the distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum protocol at TLSv1; the origin hop to API Gateway is TLS 1.2.',
    );
    acknowledge(this.distribution, 'CFR1', 'No geo restriction: farmers and operators use the app wherever they travel; every request is authorized by the API.');
  }
}
