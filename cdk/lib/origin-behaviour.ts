import { OriginProtocolPolicy, OriginRequestPolicy, ViewerProtocolPolicy, type AllowedMethods, type Distribution, type ICachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { ORIGIN_HEADER } from '../../lambdas/ports/function-settings';

/**
 * A path of the web distribution passed to one of the stack's API Gateway origins (the HTTP API at
 * `/api/*`, constructs/api-edge.ts; the live socket at `/live`, constructs/live.ts), under the
 * distribution's WAF web ACL: HTTPS only both ways, every viewer header but Host and every query
 * string forwarded, nothing compressed by CloudFront, and the origin secret's header added (a
 * viewer's own header of that name is replaced), without which the origin's Lambdas answer 403, so
 * the execute-api address cannot be used to go around the WAF.
 */
export const addSecretOriginBehaviour = (
  distribution: Distribution,
  pathPattern: string,
  originDomain: string,
  originSecret: ISecret,
  options: { readonly allowedMethods: AllowedMethods; readonly cachePolicy: ICachePolicy },
): void => {
  distribution.addBehavior(
    pathPattern,
    new HttpOrigin(originDomain, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [ORIGIN_HEADER]: originSecret.secretValue.unsafeUnwrap() },
    }),
    {
      // A POST is not redirected: plain HTTP is refused.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      // The Lambdas compress their own answers (lambdas/lib/compression.ts).
      compress: false,
      ...options,
    },
  );
};
