// zod compiles fast object parsers with `new Function`, and checks whether it may when each object
// schema is made; the app's Content-Security-Policy has no 'unsafe-eval' (shared/web/security-headers.ts),
// so that check would be a CSP violation on every page load. zod reads this global config when it
// loads, so this classic script runs first (module scripts are deferred) and turns the JIT off.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
