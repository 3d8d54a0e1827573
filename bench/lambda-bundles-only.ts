/** Runs only the Lambda bundle benchmark (`npx tsx bench/lambda-bundles-only.ts`). */
import { benchLambdaBundles } from './lambda-bundles';

await benchLambdaBundles();
