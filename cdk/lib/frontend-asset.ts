import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { AssetHashType, BundlingOutput, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { REPO_ROOT } from './paths';

/** What the web build is made from: a change to any of these makes a new asset (and a redeploy). */
const FRONTEND_INPUTS = ['frontend', 'shared', 'package-lock.json'] as const;

/** The Vite config, relative to the repository root (the same as `npm run build:web`). */
const VITE_CONFIG = 'frontend/vite.config.ts';

/** Build output and installed packages are not inputs. */
const IGNORED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.vite']);

/**
 * A stable SHA-256 over the relative paths and contents of the given files and folders
 * (recursively, in sorted order). Missing entries count as absent rather than failing, so a
 * partial checkout still synthesizes.
 */
export const hashSourceTree = (root: string, entries: readonly string[]): string => {
  const hash = createHash('sha256');
  const visit = (relative: string): void => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    const stat = statSync(absolute);
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute).sort()) {
        if (!IGNORED_DIRS.has(name)) visit(path.posix.join(relative, name));
      }
    } else if (stat.isFile()) {
      hash.update(relative).update('\0').update(readFileSync(absolute)).update('\0');
    }
  };
  for (const entry of [...entries].sort()) visit(entry);
  return hash.digest('hex');
};

/**
 * Runs the production Vite build straight into the asset's output folder, on this machine (no
 * Docker). Vite is started with the current Node.js binary rather than through npx, so nothing
 * is looked up on the network.
 */
export class ViteLocalBuild implements ILocalBundling {
  constructor(
    private readonly repoRoot: string,
    private readonly configFile: string,
  ) {}

  tryBundle(outputDir: string): boolean {
    const viteCli = path.join(this.repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
    if (!existsSync(viteCli)) throw new Error(`Cannot build the web app: ${viteCli} is missing (run npm ci).`);
    if (!existsSync(path.join(this.repoRoot, this.configFile))) {
      throw new Error(`Cannot build the web app: ${this.configFile} is missing.`);
    }
    const result = spawnSync(
      process.execPath,
      [viteCli, 'build', '--config', this.configFile, '--outDir', outputDir, '--emptyOutDir'],
      // Build output goes to stderr: a CDK app's stdout is not the place for progress logs.
      { cwd: this.repoRoot, stdio: ['ignore', 2, 2], env: { ...process.env, NODE_ENV: 'production' } },
    );
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`vite build failed with exit code ${String(result.status)}`);
    if (!existsSync(path.join(outputDir, 'index.html'))) {
      throw new Error('vite build produced no index.html');
    }
    // Source maps stay on the build machine: the site is public, its maps would publish the source.
    for (const entry of readdirSync(outputDir, { recursive: true })) {
      const file = path.join(outputDir, String(entry));
      if (file.endsWith('.map')) rmSync(file);
    }
    return true;
  }
}

interface FrontendSourceOptions {
  /** @default the repository root */
  readonly repoRoot?: string;
}

/**
 * The built web app as a BucketDeployment source. The build runs while the asset is staged at
 * synth, so a fresh clone needs no separate `npm run build:web` before `cdk synth`/`deploy`.
 * The asset hash comes from the build's inputs (FRONTEND_INPUTS), computed without building:
 * an unchanged frontend reuses the staged build in cdk.out, and a synth with bundling skipped
 * (App context `aws:cdk:bundling-stacks: []`, as the infra tests do) never starts Vite.
 */
export const frontendSource = (options: FrontendSourceOptions = {}): ISource => {
  const repoRoot = options.repoRoot ?? REPO_ROOT;
  return Source.asset(repoRoot, {
    assetHashType: AssetHashType.CUSTOM,
    assetHash: hashSourceTree(repoRoot, FRONTEND_INPUTS),
    bundling: {
      local: new ViteLocalBuild(repoRoot, VITE_CONFIG),
      // Required by the type; never used because the local build either succeeds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
      outputType: BundlingOutput.NOT_ARCHIVED,
    },
  });
};
