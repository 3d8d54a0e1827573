import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_RATE_PER_IP } from '../../../shared/api/throttle';

/**
 * The WAF web ACL (scope CLOUDFRONT) in front of the web app's and the API's distributions (issue
 * 13): a rate-based rule per client IP (shared/api/throttle.ts API_RATE_PER_IP) so one script
 * cannot use up the API's stage throttle for every farmer, and AWS's managed common rule set.
 * CloudFront takes only web ACLs made in us-east-1, so this lives in its own stack there
 * (cdk/lib/app.ts VatManEdgeStack); docs/architecture.md "Throttling" says how its ARN reaches the main stack.
 */
export class EdgeWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Vat-Man: per-IP rate limit and AWS managed common rules for the web app and the API',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('VatManEdge'),
      rules: [
        {
          name: 'RatePerIp',
          priority: 0,
          // A 429 as the API's own stage throttle answers (spec §8), not WAF's default 403.
          action: { block: { customResponse: { responseCode: 429 } } },
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: API_RATE_PER_IP.limit, evaluationWindowSec: API_RATE_PER_IP.windowSeconds } },
          visibilityConfig: visibility('VatManRatePerIp'),
        },
        {
          name: 'AwsCommonRules',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // The API takes bodies beyond the set's 8 KB (JSON fields up to 20,000 characters, the
              // milking-window CSV upload); the schemas bound them (shared/api/fields.ts), so size is counted, not blocked.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('VatManAwsCommonRules'),
        },
      ],
    });
  }
}
