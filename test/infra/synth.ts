import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { createVatManApp } from '../../cdk/lib/app';
import type { Stage } from '../../cdk/lib/stage';
import type { VatManStack } from '../../cdk/lib/vat-man-stack';

export interface SynthOptions {
  /** @default the app's default (prod) */
  readonly stage?: Stage;
  /** @default environment-agnostic, whatever CDK_DEFAULT_* say */
  readonly env?: Environment;
  /**
   * More context, e.g. `{ botCheck: 'off' }`. The tests' synth passes TEST_RECAPTCHA_SITE_KEY as
   * recaptchaSiteKey (the app refuses a reCAPTCHA bot-check without one); `recaptchaSiteKey:
   * undefined` here leaves it out.
   */
  readonly context?: Readonly<Record<string, unknown>>;
}

/** A stand-in site key: public in real life too, so nothing secret is needed to synthesize. */
export const TEST_RECAPTCHA_SITE_KEY = 'test-recaptcha-site-key';

export interface Synthesized {
  readonly stack: VatManStack;
  readonly assembly: CloudAssembly;
  readonly template: Template;
  /** Deletes the temporary cloud assembly. */
  readonly cleanup: () => void;
}

/**
 * Synthesizes the real app (cdk-nag included: a finding throws here) with asset bundling skipped,
 * so no Lambda is bundled and the web app is not built: fast, and independent of frontend/.
 */
export const synthVatMan = (options: SynthOptions = {}): Synthesized => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'vat-man-cdk-'));
  const { app, stack } = createVatManApp({
    outdir,
    context: {
      // An empty list of stacks to bundle: `aws:cdk:bundling-stacks` is how the CLI narrows bundling.
      'aws:cdk:bundling-stacks': [],
      recaptchaSiteKey: TEST_RECAPTCHA_SITE_KEY,
      ...(options.stage ? { stage: options.stage } : {}),
      ...options.context,
    },
    stackProps: { env: options.env },
  });
  const assembly = app.synth();
  return {
    stack,
    assembly,
    template: Template.fromStack(stack),
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
};

interface ValidationReport {
  readonly pluginReports: readonly {
    readonly pluginName: string;
    readonly violations?: readonly { readonly ruleName: string; readonly severity?: string }[];
  }[];
}

const validationReport = (assembly: CloudAssembly): ValidationReport =>
  JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;

/** The violations cdk-nag left in the assembly's validation-report.json (after acknowledgements). */
export const nagViolations = (assembly: CloudAssembly): string[] =>
  validationReport(assembly)
    .pluginReports.filter((r) => r.pluginName.includes('AwsSolutions'))
    .flatMap((r) => (r.violations ?? []).map((v) => `${v.severity ?? '?'} ${v.ruleName}`));

/**
 * Every violation of every validation plugin in validation-report.json: cdk-nag's and CDK's own
 * 'CloudFormation Validate' (schema rules such as F3031, which IAM enforces at deploy time).
 * A violation that only warns at synth still fails the deploy, so none is allowed.
 */
export const validationViolations = (assembly: CloudAssembly): string[] =>
  validationReport(assembly).pluginReports.flatMap((r) => (r.violations ?? []).map((v) => `${r.pluginName}: ${v.severity ?? '?'} ${v.ruleName}`));

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> } & Record<string, unknown>>;

/** The logical id of the only resource of a type (found, never hard-coded). */
export const onlyResourceId = (template: Template, type: string): string => {
  const ids = Object.keys(template.findResources(type));
  if (ids.length !== 1) throw new Error(`Expected one ${type}, found ${ids.length}`);
  return ids[0] as string;
};

/** The Lambda function resources keyed by logical id. */
export const lambdaFunctions = (template: Template): Resources =>
  template.findResources('AWS::Lambda::Function') as Resources;

/** The logical id of the API Lambda whose description names this endpoint path. */
export const endpointFunctionId = (template: Template, endpointPath: string): string => {
  const matches = Object.entries(lambdaFunctions(template)).filter(
    ([, fn]) => fn.Properties?.Description === `Vat-Man POST ${endpointPath}`,
  );
  if (matches.length !== 1) throw new Error(`Expected one function for ${endpointPath}, found ${matches.length}`);
  return (matches[0] as [string, unknown])[0];
};

/** The environment variables of a function resource. */
export const functionEnv = (template: Template, functionId: string): Record<string, unknown> => {
  const fn = lambdaFunctions(template)[functionId];
  const env = (fn?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
  if (!env) throw new Error(`${functionId} has no environment`);
  return env;
};
