import { RedocStandalone } from 'redoc';
// The committed reference (npm run openapi), shipped as a build file: the page fetches it, and an
// integrator can download the same file.
import specUrl from '../../../../../docs/openapi.json?url';

/**
 * The API reference (/dts/api): docs/openapi.json rendered by Redoc, built into the web app (no
 * CDN) and loaded only on this route. Public, like the telemetry interface page: it describes the
 * actions and their access rules, holds no data, and the server checks every rule itself.
 * Redoc's search runs in a blob worker, which the site's Content-Security-Policy does not allow.
 */
export function ApiReferencePage() {
  return (
    <main aria-label="API reference">
      <RedocStandalone
        specUrl={specUrl}
        options={{ disableSearch: true, showExtensions: ['x-access'], hideHostname: true, expandSingleSchemaField: true, jsonSamplesExpandLevel: 2, theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } } } }}
      />
    </main>
  );
}
