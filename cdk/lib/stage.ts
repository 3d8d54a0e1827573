import { RemovalPolicy } from 'aws-cdk-lib';
import type { Node } from 'constructs';

/**
 * Where a deployment lives. `dev` is a throw-away copy for a developer or CI; `prod` holds
 * farmers' data and must survive a mistaken `cdk destroy` or a resource replacement.
 */
export type Stage = 'dev' | 'prod';

const STAGES: readonly Stage[] = ['dev', 'prod'];

/** The context key: `npx cdk deploy -c stage=dev`. */
const STAGE_CONTEXT_KEY = 'stage';

/** Reads the `stage` context value; absent means `prod` so that data is never deleted by default. */
export const stageFromContext = (node: Node): Stage => {
  const raw: unknown = node.tryGetContext(STAGE_CONTEXT_KEY) ?? 'prod';
  if (raw === 'dev' || raw === 'prod') return raw;
  throw new Error(`Context "${STAGE_CONTEXT_KEY}" must be one of ${STAGES.join(', ')}; got ${JSON.stringify(raw)}`);
};

/**
 * DESTROY only in dev: a dev stack is torn down and rebuilt freely, and leftover tables,
 * buckets, pools and log groups would block the next deploy (fixed names) or cost money.
 * In prod everything holding data or audit trails is retained when removed from the stack.
 */
export const removalPolicyFor = (stage: Stage): RemovalPolicy =>
  stage === 'dev' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
