import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlerEntries } from '../../bench/lambda-bundles';
import { DASHBOARD_METRICS } from '../../cdk/lib/constructs/operator-dashboard';
import { ENDPOINTS } from '../../shared/api/endpoints';
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../../lambdas/ports/metric-names';
import { lambdaFunctions, synthVatMan, type Synthesized } from './synth';

let synth: Synthesized;
let template: Template;
beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
  template = synth.template;
});
afterAll(() => synth.cleanup());

type Fn = { Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> }; TracingConfig?: { Mode: string }; Role?: unknown } };
/** The project's functions (CDK's own custom-resource handlers aside): each VatManFunction's description starts so. */
const ours = (): [string, Fn][] => Object.entries(lambdaFunctions(template) as Record<string, Fn>).filter(([, fn]) => String(fn.Properties.Description).startsWith('Vat-Man'));
const traced = (fn: Fn) => fn.Properties.Description?.startsWith('Vat-Man POST ') || fn.Properties.Description?.includes('telemetry ingest');

describe('Powertools settings', () => {
  it('are on every function the stack deploys: the service name, the metrics namespace and the log level', () => {
    const fns = ours();
    // One per API entry, the four Cognito triggers, and the seven others (ingest, alert sweep, device
    // replies, dairy sync, Watchman, live updates, install reconciler): none is missed.
    expect(fns).toHaveLength(new Set(ENDPOINTS.map((e) => e.handler)).size + 4 + 7);
    expect(fns.length).toBeGreaterThanOrEqual(handlerEntries().length);
    for (const [, fn] of fns) {
      expect(fn.Properties.Environment?.Variables).toMatchObject({ POWERTOOLS_SERVICE_NAME: SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE, POWERTOOLS_LOG_LEVEL: 'INFO' });
      // The local choices stay local: no pretty-printed dev logs, metrics not switched off.
      expect(fn.Properties.Environment?.Variables).not.toHaveProperty('POWERTOOLS_DEV');
      expect(fn.Properties.Environment?.Variables).not.toHaveProperty('POWERTOOLS_METRICS_DISABLED');
    }
  });

  it('trace the API functions and the ingest (Active), with X-Ray write access; no other function', () => {
    const fns = ours();
    const tracedFns = fns.filter(([, fn]) => traced(fn));
    expect(tracedFns).toHaveLength(new Set(ENDPOINTS.map((e) => e.handler)).size + 1);
    for (const [, fn] of fns) expect(fn.Properties.TracingConfig?.Mode).toBe(traced(fn) ? 'Active' : undefined);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as { Properties: { PolicyDocument: { Statement: { Action: unknown }[] }; Roles: unknown[] } }[];
    for (const [, fn] of tracedFns) {
      const role = fn.Properties.Role as { 'Fn::GetAtt': [string, string] };
      const xray = policies.filter((p) => JSON.stringify(p.Properties.Roles).includes(role['Fn::GetAtt'][0]) && JSON.stringify(p.Properties.PolicyDocument).includes('xray:PutTraceSegments'));
      expect(xray.length).toBeGreaterThan(0);
    }
  });
});

describe("the operators' dashboard", () => {
  const body = (): string => {
    const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as { Properties: { DashboardBody: unknown } }[];
    expect(dashboards).toHaveLength(1);
    return JSON.stringify(synth.stack.resolve((dashboards[0] as { Properties: { DashboardBody: unknown } }).Properties.DashboardBody));
  };

  it('draws every Powertools metric in the VatMan namespace with the service dimension', () => {
    const text = body();
    expect([...DASHBOARD_METRICS].sort()).toEqual(Object.values(METRIC).sort());
    for (const name of Object.values(METRIC)) expect(text).toContain(`\\"${METRICS_NAMESPACE}\\",\\"${name}\\",\\"service\\",\\"${SERVICE_NAME}\\"`);
    expect(text).toContain('AlertLatency');
    expect(text).toMatch(/p95/);
  });

  it('shows each operator alarm, its state and its graph', () => {
    const text = body();
    const alarms = Object.keys(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(7);
    expect(text).toContain('\\"type\\":\\"alarm\\"');
    for (const id of alarms) expect(text.split(id).length - 1).toBeGreaterThanOrEqual(2);
  });
});
