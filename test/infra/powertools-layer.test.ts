import { builtinModules } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedPowertoolsVersion, POWERTOOLS_LAYER_MODULES, POWERTOOLS_PACKAGES, powertoolsLayerParameter } from '../../cdk/lib/constructs/powertools-layer';
import { AS_CDK_BUNDLES } from '../../bench/lambda-bundles';
import { apiHandlerEntry, functionEntry, triggerEntry } from '../../cdk/lib/paths';
import { lambdaFunctions, synthVatMan, type Synthesized } from './synth';

let synth: Synthesized;
beforeAll(() => {
  synth = synthVatMan({ stage: 'prod' });
});
afterAll(() => synth.cleanup());

type Fn = { Properties: { Description?: string; Layers?: unknown[] } };

describe("Powertools from AWS's public layer", () => {
  it('is on every function, at the installed version, its ARN read by CloudFormation from the public SSM parameter of that version', () => {
    const version = installedPowertoolsVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const parameters = synth.template.toJSON().Parameters as Record<string, { Type: string; Default?: string }>;
    const [id, parameter] = Object.entries(parameters).find(([, p]) => p.Default === powertoolsLayerParameter(version)) ?? [];
    expect(parameter?.Type).toBe('AWS::SSM::Parameter::Value<String>');
    const ours = Object.values(lambdaFunctions(synth.template) as Record<string, Fn>).filter((fn) => String(fn.Properties.Description).startsWith('Vat-Man'));
    expect(ours.length).toBeGreaterThan(20);
    for (const fn of ours) expect(fn.Properties.Layers, fn.Properties.Description).toEqual([{ Ref: id }]);
  });

  it('refuses Powertools packages installed at different versions (the layer carries one)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'powertools-versions-'));
    try {
      POWERTOOLS_PACKAGES.forEach((name, i) => {
        mkdirSync(path.join(root, 'node_modules', name), { recursive: true });
        writeFileSync(path.join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: i === 2 ? '2.35.0' : '2.36.0' }));
      });
      expect(() => installedPowertoolsVersion(root)).toThrow(/one version of every package/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the bundles, as cdk bundles them', () => {
  const isLayer = (p: string) => POWERTOOLS_LAYER_MODULES.some((m) => (m.endsWith('/*') ? p.startsWith(m.slice(0, -1)) : p === m || p.startsWith(`${m}/`)));

  // A traced API function, the traced ingest, an untraced job and a trigger.
  it.each([
    ['api/farmer-dashboard', apiHandlerEntry('farmer-dashboard')],
    ['ingest', functionEntry('ingest')],
    ['watchman', functionEntry('watchman')],
    ['pre-token-generation trigger', triggerEntry('pre-token-generation')],
  ])('%s: no Powertools or X-Ray SDK code inside, and every module left out is the runtime’s SDK, the layer’s, or mqtt', async (_name, entry) => {
    const { metafile } = await build({
      entryPoints: [entry],
      ...AS_CDK_BUNDLES,
      write: false,
      metafile: true,
      outdir: path.join(tmpdir(), 'unused'),
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((f) => /node_modules\/(@aws-lambda-powertools|aws-xray-sdk-core)\//.test(f))).toEqual([]);
    const externals = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
    // Node's own modules aside, nothing is required that Lambda would not find.
    const unknown = externals.filter((p) => !p.startsWith('node:') && !builtinModules.includes(p) && !p.startsWith('@aws-sdk/') && !isLayer(p) && p !== 'mqtt');
    expect(unknown).toEqual([]);
    expect(externals.some((p) => p.startsWith('@aws-lambda-powertools/logger'))).toBe(true);
  });
});
