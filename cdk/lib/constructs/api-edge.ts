import { Duration, Fn } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  CacheCookieBehavior,
  type Distribution,
} from 'aws-cdk-lib/aws-cloudfront';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { addSecretOriginBehaviour } from '../origin-behaviour';

/** The web distribution's path for the API: every endpoint is under /api/ (shared/api/endpoints.ts). */
const API_PATH_PATTERN = '/api/*';

interface ApiEdgeProps {
  readonly httpApi: HttpApi;
  /** The web app's distribution (constructs/web.ts), which carries the WAF web ACL with the per-IP rate rule. */
  readonly distribution: Distribution;
  /** The web app's address (`https://<distribution domain>`): the API's address for the app. */
  readonly siteUrl: string;
  /** Added to every request as ORIGIN_HEADER; the API refuses requests without it (lambdas/lib/origin-check.ts). */
  readonly originSecret: ISecret;
}

/**
 * The API behind CloudFront, on the web app's own origin: HTTP APIs cannot
 * take a WAF web ACL (WAF protects REST APIs, CloudFront, ALB, AppSync, Cognito…), so the web
 * app calls the API through the web distribution's `/api/*` behaviour, under the distribution's
 * web ACL with the per-IP rate rule. One origin for the site and the API: no second host to look
 * up and connect to, and no CORS preflight (a round trip) before each call. Nothing is cached:
 * every request (POST) goes to the API, with the bearer (Authorization is in the cache key, as
 * CloudFront requires to forward it) and every other viewer header but Host. It adds the origin
 * secret's header, without which the API's Lambdas answer 403, so the execute-api address cannot
 * be used to go around the WAF.
 */
export class ApiEdge extends Construct {
  /** The web distribution, which now carries the API: the endpoint functions wait for it. */
  readonly distribution: Distribution;
  /** The API's address for the web app: the site's own, e.g. `https://d123.cloudfront.net`. */
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
    addSecretOriginBehaviour(props.distribution, API_PATH_PATTERN, domain, props.originSecret, { allowedMethods: AllowedMethods.ALLOW_ALL, cachePolicy });
    this.distribution = props.distribution;
    this.url = props.siteUrl;
  }
}
