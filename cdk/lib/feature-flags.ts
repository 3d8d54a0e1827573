/**
 * CDK feature flags this app relies on, set on the App so `cdk synth` and the infra tests build
 * the same template. Flags keep their value when aws-cdk-lib is upgraded (unlike its defaults);
 * values in cdk.json's "context" still take precedence.
 */
export const FEATURE_FLAGS = {
  // Merge the many table/topic/log grants into few statements: 17 roles stay well under the
  // IAM policy size limit.
  '@aws-cdk/aws-iam:minimizePolicies': true,
  // The site bucket's server access logs are granted by a bucket policy on the log bucket,
  // not by the legacy LogDeliveryWrite ACL.
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Lambdas use the AWS SDK v3 of the Node.js runtime; its @smithy/* packages come with it.
  '@aws-cdk/aws-lambda-nodejs:sdkV3ExcludeSmithyPackages': true,
  '@aws-cdk/core:enablePartitionLiterals': true,
  '@aws-cdk/core:checkSecretUsage': true,
  '@aws-cdk/core:validateSnapshotRemovalPolicy': true,
} as const;
