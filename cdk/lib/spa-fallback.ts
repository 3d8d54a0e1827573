/**
 * The single-page app's fallback, a CloudFront Function (JavaScript 2.0) on the site's viewer
 * requests: a deep link such as /dts/dashboard gets index.html and the client router takes over.
 * Everything under /dts/ is the app's (a reset token or return address may hold dots); elsewhere a
 * last segment with a dot is a file of the build (/config.json, /assets/…, /icons/…). A function
 * and not the distribution's error responses (403/404 → index.html), which would also rewrite the
 * API's own 403 and 404 answers now that it is on this distribution (`/api/*`, constructs/api-edge.ts).
 *
 * Its own module, without imports: the CDK web construct deploys this code and the local web
 * stand-in runs the same code (`spaFallbackUri`), so a missing file of the build is not the app's page
 * locally either.
 */
export const SPA_FALLBACK_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.slice(uri.lastIndexOf('/') + 1);
  if (uri.indexOf('/dts/') === 0 || last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

type ViewerRequest = { request: { uri: string } };
const handler = new Function(`${SPA_FALLBACK_FUNCTION}; return handler;`)() as (event: ViewerRequest) => { uri: string };

/** The path the distribution asks the bucket for, for a viewer's path: what the function above answers. */
export const spaFallbackUri = (uri: string): string => handler({ request: { uri } }).uri;
