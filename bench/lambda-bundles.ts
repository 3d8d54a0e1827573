/**
 * Every handler bundled as cdk bundles it (cdk/lib/constructs/vat-man-function.ts HANDLER_BUNDLING:
 * esbuild, CommonJS, minified, @aws-sdk/* left to the runtime), then each bundle's minified size and
 * its module init: the time a fresh Node.js process takes to load it (the SDK modules it loads
 * included, as Lambda's init phase has them), the median of a few loads. Also printed, not a
 * target: the first-use load the first invocation pays (lambdas/lib/lazy-handler.ts `ready`: the
 * handler's modules, its schemas and SDK clients), in the same process right after the init.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { build } from 'esbuild';
import { createVatManApp } from '../cdk/lib/app';
import { HANDLER_BUNDLING, VatManFunction } from '../cdk/lib/constructs/vat-man-function';
import { REPO_ROOT } from '../cdk/lib/paths';

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

export const benchLambdaBundles = async (): Promise<void> => {
  // Inside the repository, so the bundles find @aws-sdk/* in node_modules as Lambda finds the runtime's.
  const outDir = join(REPO_ROOT, '.data', 'bench-bundles');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  console.log(`lambda bundles (esbuild as cdk bundles them; init = load in a fresh node, median of ${IMPORTS}; targets ≤ ${MAX_BUNDLE_BYTES / 1000} KB, ≤ ${MAX_INIT_MS} ms)`);
  let over = 0;
  const functions = handlerEntries();
  console.log(`  ${functions.length} function entries found in the CDK stack`);
  for (const { name, entry } of functions) {
    const outfile = join(outDir, `${name.replaceAll('/', '--')}.cjs`);
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: HANDLER_BUNDLING.format,
      target: HANDLER_BUNDLING.target,
      minify: HANDLER_BUNDLING.minify,
      mainFields: [...HANDLER_BUNDLING.mainFields],
      external: [...HANDLER_BUNDLING.external],
      logLevel: 'error',
    });
    const bytes = statSync(outfile).size;
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
    console.log(`  ${name.padEnd(34)} ${(bytes / 1000).toFixed(1).padStart(7)} KB  init ${init.toFixed(1).padStart(6)} ms  (first-use load ${firstUse.toFixed(0).padStart(4)} ms)${ok ? '' : '  OVER TARGET'}`);
  }
  rmSync(outDir, { recursive: true, force: true });
  console.log(`  ${over === 0 ? 'every bundle within both targets' : `${over} over a target`} (${basename(outDir)} removed)`);
};
