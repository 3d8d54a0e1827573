import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { LayerVersion, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { REPO_ROOT } from '../paths';

/**
 * The Powertools packages the functions import (lambdas/lib/logger.ts, metrics.ts, tracing.ts and
 * their middlewares). The layer carries all of them at one version, so they must be installed at one.
 */
export const POWERTOOLS_PACKAGES = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/tracer'] as const;

/**
 * What the bundles leave to the layer (esbuild externals): every Powertools package, and the X-Ray
 * SDK the Tracer loads (the layer installs it as the Tracer's dependency). Bundled, they were about
 * 37 KB in every function and 160 KB in the traced ones, past the 300 KB a bundle may weigh.
 */
export const POWERTOOLS_LAYER_MODULES = ['@aws-lambda-powertools/*', 'aws-xray-sdk-core'] as const;

/** The Powertools version installed in node_modules: what the tests and the local stack run, and the layer must match. */
export const installedPowertoolsVersion = (root: string = REPO_ROOT): string => {
  const versions = POWERTOOLS_PACKAGES.map((name) => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof manifest.version !== 'string') throw new Error(`${name} in node_modules has no version`);
    return `${name}@${manifest.version}`;
  });
  const distinct = new Set(versions.map((v) => v.slice(v.lastIndexOf('@') + 1)));
  if (distinct.size !== 1) throw new Error(`The Powertools layer carries one version of every package; installed: ${versions.join(', ')}`);
  return [...distinct][0] as string;
};

/**
 * The public SSM parameter AWS publishes in each commercial region for each Powertools release,
 * whose value is that region's ARN of the layer with that version
 * (arn:aws:lambda:<region>:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:<n>).
 */
export const powertoolsLayerParameter = (version: string): string => `/aws/service/powertools/typescript/generic/all/${version}`;

const LAYER_ID = 'PowertoolsLayer';

/**
 * The stack's one reference to Powertools for AWS Lambda's public layer, at the installed version:
 * the ARN is resolved by CloudFormation from the parameter above in the stack's region at deploy
 * time, so `cdk synth` needs no AWS access and the deployed layer never drifts from what the tests ran.
 */
export const powertoolsLayer = (scope: Construct): ILayerVersion => {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild(LAYER_ID);
  if (existing) return existing as ILayerVersion;
  const arn = StringParameter.valueForStringParameter(stack, powertoolsLayerParameter(installedPowertoolsVersion()));
  return LayerVersion.fromLayerVersionArn(stack, LAYER_ID, arn);
};
