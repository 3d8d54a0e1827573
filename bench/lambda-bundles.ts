/**
 * Every handler bundled as cdk bundles it (cdk/lib/constructs/vat-man-function.ts HANDLER_BUNDLING:
 * esbuild, CommonJS, minified, @aws-sdk/* left to the runtime, Powertools and the X-Ray SDK left to
 * Powertools' layer), then each bundle's minified size as deployed and its module init: the time a
 * fresh Node.js process takes to load it (the SDK and layer modules it loads included, resolved
 * from node_modules as Lambda resolves the runtime's and /opt/nodejs's), the median of a few loads.
 * Also printed, not a target: the first-use load the first invocation pays
 * (lambdas/lib/lazy-handler.ts `ready`: the handler's modules, its schemas and SDK clients), in the
 * same process right after the init; and the layer's code each function loads, which the layer
 * holds once for every function and is not in the bundle's size.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { createVatManApp } from '../cdk/lib/app';
import { HANDLER_BUNDLING, VatManFunction } from '../cdk/lib/constructs/vat-man-function';
import { installedPowertoolsVersion, POWERTOOLS_LAYER_MODULES } from '../cdk/lib/constructs/powertools-layer';
import { REPO_ROOT } from '../cdk/lib/paths';

/** esbuild's options as cdk bundles a handler (HANDLER_BUNDLING), for the bench and the bundle tests. */
export const AS_CDK_BUNDLES = {
  bundle: true,
  platform: 'node' as const,
  format: HANDLER_BUNDLING.format,
  target: HANDLER_BUNDLING.target,
  minify: HANDLER_BUNDLING.minify,
  mainFields: [...HANDLER_BUNDLING.mainFields],
  external: [...HANDLER_BUNDLING.external],
  logLevel: 'error' as const,
};

/** The Lambda size and start-up targets. */
const MAX_BUNDLE_BYTES = 300_000;
const MAX_INIT_MS = 100;
const IMPORTS = 3;

/**
 * The functions the stack deploys, found in the stack itself (every VatManFunction the CDK app
 * builds, asset bundling skipped), so a function added to cdk is measured without a list to keep.
 * Named by their entry under lambdas/ (api/<handler>, triggers/<name>, installer/reconcile-handler, …).
 */
export const handlerEntries = (): { name: string; entry: string }[] => {
  const outdir = mkdtempSync(join(tmpdir(), 'vat-man-bench-cdk-'));
  try {
    // A stand-in reCAPTCHA site key: the app refuses a reCAPTCHA bot-check without one (it is public in AWS too).
    const { stack } = createVatManApp({ outdir, context: { 'aws:cdk:bundling-stacks': [], recaptchaSiteKey: 'bench-site-key' } });
    const entries = new Set(stack.node.findAll().flatMap((c) => (c instanceof VatManFunction ? [c.entry] : [])));
    const lambdas = join(REPO_ROOT, 'lambdas');
    return [...entries].sort().map((entry) => ({ name: relative(lambdas, entry).replace(/\.ts$/, ''), entry }));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

/** Loads the bundle in a fresh process and prints how long the load took, then how long its first-use load took. */
const IMPORT_TIMER = `const t = performance.now(); const m = require(process.argv[1]); const init = performance.now() - t; const u = performance.now(); Promise.resolve(m.handler.ready?.()).then(() => process.stdout.write(init + ' ' + (performance.now() - u)));`;

/** A value of the right shape for a variable the stack would set. */
const standIn = (name: string): string =>
  name === 'BOT_CHECK'
    ? 'recaptcha' // as the stack sets it when the bot-check is on
    : name.endsWith('_URL') || name.endsWith('_ENDPOINT')
    ? 'https://bench.invalid'
    : name.endsWith('_ARN')
      ? `arn:aws:sns:ap-southeast-2:000000000000:${name.toLowerCase()}`
      : `bench-${name.toLowerCase()}`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Whether an import the bundle leaves out is one the Powertools layer provides. */
const fromLayer = (specifier: string): boolean =>
  POWERTOOLS_LAYER_MODULES.some((m) => (m.endsWith('/*') ? specifier.startsWith(m.slice(0, -1)) : specifier === m || specifier.startsWith(`${m}/`)));

/** The layer modules a bundle requires (its external imports the layer answers), sorted. */
const layerImports = (metafile: Metafile, outfile: string): string[] => {
  const output = Object.entries(metafile.outputs).find(([file]) => basename(file) === basename(outfile))?.[1];
  if (!output) throw new Error(`${outfile}: not in the metafile's outputs`);
  return [...new Set(output.imports.filter((i) => i.external && fromLayer(i.path)).map((i) => i.path))].sort();
};

/**
 * The minified size of the layer code a set of imports loads, as esbuild would bundle it (the
 * layer holds it unbundled in /opt/nodejs, once for every function): the part of the old bundles
 * the layer took away.
 */
const layerCodeBytes = async (imports: readonly string[], outDir: string, cache: Map<string, number>): Promise<number> => {
  const key = imports.join(' ');
  const known = cache.get(key);
  if (known !== undefined) return known;
  const outfile = join(outDir, `layer-probe-${cache.size}.cjs`);
  await build({
    stdin: { contents: imports.map((i) => `require(${JSON.stringify(i)});`).join('\n'), resolveDir: REPO_ROOT, loader: 'js' },
    outfile,
    ...AS_CDK_BUNDLES,
    external: ['@aws-sdk/*'],
  });
  const bytes = statSync(outfile).size;
  cache.set(key, bytes);
  return bytes;
};

/** The Powertools packages' short names in a list of imports (`logger, metrics, tracer`). */
const layerPackages = (imports: readonly string[]): string =>
  [...new Set(imports.map((i) => (i.startsWith('@aws-lambda-powertools/') ? (i.split('/')[1] ?? i) : i)))].join(', ');

export const benchLambdaBundles = async (): Promise<void> => {
  // Inside the repository, so the bundles find @aws-sdk/* in node_modules as Lambda finds the runtime's.
  const outDir = join(REPO_ROOT, '.data', 'bench-bundles');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  console.log(
    `lambda bundles (esbuild as cdk bundles them, Powertools ${installedPowertoolsVersion()} and the X-Ray SDK in the layer; init = load in a fresh node with the layer's modules from node_modules, median of ${IMPORTS}; targets ≤ ${MAX_BUNDLE_BYTES / 1000} KB, ≤ ${MAX_INIT_MS} ms)`,
  );
  let over = 0;
  const layerSizes = new Map<string, number>();
  const functions = handlerEntries();
  console.log(`  ${functions.length} function entries found in the CDK stack`);
  for (const { name, entry } of functions) {
    const outfile = join(outDir, `${name.replaceAll('/', '--')}.cjs`);
    const { metafile } = await build({
      entryPoints: [entry],
      metafile: true,
      outfile,
      ...AS_CDK_BUNDLES,
    });
    const bytes = statSync(outfile).size;
    const fromTheLayer = layerImports(metafile, outfile);
    const layerBytes = await layerCodeBytes(fromTheLayer, outDir, layerSizes);
    // The variables the stack sets that a handler reads at init: named by its own error, filled with a stand-in value.
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', AWS_REGION: 'ap-southeast-2', NODE_OPTIONS: '--enable-source-maps' };
    const importOnce = (): { init: number; firstUse: number } => {
      for (let tries = 0; tries < 20; tries++) {
        const run = spawnSync(process.execPath, ['-e', IMPORT_TIMER, outfile], { cwd: outDir, encoding: 'utf8', env });
        if (run.status === 0) {
          const [init, firstUse] = run.stdout.split(' ').map(Number);
          return { init: init ?? NaN, firstUse: firstUse ?? NaN };
        }
        const missing = run.stderr.match(/Missing environment variable (\w+)/)?.[1];
        if (!missing) throw new Error(`${name}: import failed: ${run.stderr.slice(-800)}`);
        env[missing] = standIn(missing);
      }
      throw new Error(`${name}: import still failing after 20 environment variables`);
    };
    importOnce(); // the first import finds the variables; the timed ones follow
    const loads = Array.from({ length: IMPORTS }, importOnce);
    const init = median(loads.map((l) => l.init));
    const firstUse = median(loads.map((l) => l.firstUse));
    const ok = bytes <= MAX_BUNDLE_BYTES && init <= MAX_INIT_MS;
    if (!ok) over += 1;
    console.log(
      `  ${name.padEnd(34)} ${(bytes / 1000).toFixed(1).padStart(7)} KB  init ${init.toFixed(1).padStart(6)} ms  (first-use load ${firstUse.toFixed(0).padStart(4)} ms; layer ${(layerBytes / 1000).toFixed(1).padStart(5)} KB: ${layerPackages(fromTheLayer)})${ok ? '' : '  OVER TARGET'}`,
    );
  }
  rmSync(outDir, { recursive: true, force: true });
  // One figure (or range) per set of packages: the middlewares a function imports vary it a little.
  const byPackages = new Map<string, number[]>();
  for (const [imports, b] of layerSizes) byPackages.set(layerPackages(imports.split(' ')), [...(byPackages.get(layerPackages(imports.split(' '))) ?? []), b]);
  const kb = (b: number) => (b / 1000).toFixed(1);
  const layerKb = [...byPackages.entries()].map(([pkgs, bs]) => `${pkgs} ${Math.min(...bs) === Math.max(...bs) ? kb(Math.min(...bs)) : `${kb(Math.min(...bs))}-${kb(Math.max(...bs))}`} KB`);
  console.log(`  Powertools layer, not in the sizes above (held once, in /opt/nodejs): the code the functions load from it, minified as esbuild would bundle it: ${layerKb.join('; ')}`);
  console.log(`  ${over === 0 ? 'every bundle within both targets' : `${over} over a target`} (${basename(outDir)} removed)`);
};
