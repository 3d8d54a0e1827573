import { CfnElement, DefaultStackSynthesizer, Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges a cdk-nag AwsSolutions finding on a construct and everything below it.
 * `rule` is the rule id without the pack prefix, with the finding when the rule reports several
 * (`'IAM5[Resource::*]'`): cdk-nag 3 matches each finding exactly, so a wildcard acknowledged
 * here never hides a new one.
 */
export const acknowledge = (scope: IConstruct, rule: string, reason: string): void => {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
};

/** How cdk-nag prints a resource's `Fn::GetAtt` in a finding: `<LogicalId.Attribute>`. */
export const nagGetAtt = (resource: IConstruct, attribute: string): string => {
  const cfn = resource instanceof CfnElement ? resource : resource.node.defaultChild;
  if (!(cfn instanceof CfnElement)) throw new Error(`${resource.node.path} has no CloudFormation resource`);
  return `<${String(Stack.of(cfn).resolve(cfn.logicalId))}.${attribute}>`;
};

/** A pseudo parameter as cdk-nag prints it: the literal when the stack knows it, else `<AWS::Name>`. */
export const nagPseudo = (stack: Stack, value: string): string => {
  const resolved: unknown = stack.resolve(value);
  if (typeof resolved === 'string') return resolved;
  if (typeof resolved === 'object' && resolved !== null && 'Ref' in resolved) return `<${String(resolved.Ref)}>`;
  throw new Error(`Unexpected pseudo parameter ${JSON.stringify(resolved)}`);
};

/**
 * The objects of the bootstrap asset bucket (`arn:…:s3:::cdk-<qualifier>-assets-<account>-<region>/*`)
 * as they appear in a finding: literal where the stack's environment is known.
 */
export const nagAssetBucketObjects = (scope: IConstruct): string => {
  const stack = Stack.of(scope);
  const qualifier: unknown =
    stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const [partition, account, region] = [stack.partition, stack.account, stack.region].map((v) => nagPseudo(stack, v));
  return `arn:${partition}:s3:::cdk-${String(qualifier)}-assets-${account}-${region}/*`;
};
