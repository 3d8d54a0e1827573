import { describe, expect, it } from 'vitest';
import { onDemandFiles, precacheList } from '../../frontend/build/service-worker';

describe("the service worker's install list", () => {
  it('caches the shell, every screen and the public files, not source maps or the on-demand PDF chunks', () => {
    const chunks = [
      { fileName: 'assets/index-a1.js', facadeModuleId: '/app/frontend/index.html' },
      { fileName: 'assets/milk-dashboard-page-b2.js', facadeModuleId: '/app/frontend/src/features/milk-dashboard/components/milk-dashboard-page.tsx' },
      { fileName: 'assets/record-pdf-c3.js', facadeModuleId: '/app/frontend/src/features/compliance/utils/record-pdf.ts' },
      { fileName: 'assets/pdf-fonts-d4.js', facadeModuleId: '/app/frontend/src/features/compliance/utils/pdf-fonts.ts' },
      { fileName: 'assets/shared-e5.js', facadeModuleId: null },
    ];
    const onDemand = onDemandFiles(chunks);
    expect(onDemand).toEqual(['assets/record-pdf-c3.js', 'assets/pdf-fonts-d4.js']);
    const bundle = [...chunks.map((c) => c.fileName), 'assets/index-a1.js.map', 'assets/index-f6.css', 'index.html', 'sw.js'];
    expect(precacheList(bundle, ['icons/icon-192.png', 'manifest.webmanifest'], onDemand)).toEqual([
      '/assets/index-a1.js',
      '/assets/index-f6.css',
      '/assets/milk-dashboard-page-b2.js',
      '/assets/shared-e5.js',
      '/icons/icon-192.png',
      '/index.html',
      '/manifest.webmanifest',
    ]);
  });

  it("leaves the API reference (/dts/api: Redoc's chunk and the document, an asset named by its source) out: it is for integrators, not farmers' phones", () => {
    const chunks = [
      { fileName: 'assets/api-reference-page-a1.js', facadeModuleId: '/app/frontend/src/features/api-reference/components/api-reference-page.tsx' },
      { fileName: 'assets/openapi-b2.json', facadeModuleId: '../docs/openapi.json' },
      { fileName: 'assets/other-c3.json', facadeModuleId: '../docs/other.json' },
    ];
    expect(onDemandFiles(chunks)).toEqual(['assets/api-reference-page-a1.js', 'assets/openapi-b2.json']);
  });
});
