/**
 * zod compiles fast object parsers with `new Function`, and checks whether it may when its first
 * object schema is made; the app's Content-Security-Policy has no 'unsafe-eval'
 * (shared/web/security-headers.ts), so that check would be a CSP violation on every page load. zod
 * reads this global config when it loads, which is never in the first module (it comes with the
 * screens that call the API), so setting it here, main.tsx's first import, turns the JIT off
 * before then. (It was a classic script in index.html, which blocked the first render.)
 */
declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });

export {};
