/**
 * The AWS SDK warns on every start that its releases after January 2027 need Node 22; the
 * local stack runs on this machine's Node 20 (Lambdas run on Node 24 in AWS). Keep the
 * console for what matters; every other warning still prints. The SDK's own switch is set too, so
 * the processes this one starts (dynalite, the Lambda workers, a spawned stack) stay quiet as well.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const original = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  if (type === 'NodeVersionSupportWarning' || text.includes('require node >=22')) return;
  (original as (...a: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
