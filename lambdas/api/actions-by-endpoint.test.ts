import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointPath } from '../../shared/api/endpoints';
import { portsOf, type ServedAction } from '../lib/dispatch';
import { ENDPOINT_PORTS } from '../ports/function-ports';
import { ACTIONS_BY_ENDPOINT, checkServes } from './actions-by-endpoint';

describe('actions by endpoint', () => {
  it.each(ENDPOINTS.map((e) => e.path))('%s serves exactly its declared contracts', (path) => {
    expect(() => checkServes(path as EndpointPath, ACTIONS_BY_ENDPOINT[path as EndpointPath])).not.toThrow();
  });

  it.each(ENDPOINTS.map((e) => [e.path, e.handler] as const))('%s: its Lambda (lambdas/api/%s.ts) loads exactly the actions of the map', async (path, file) => {
    const { handler } = (await import(`./${file}.ts`)) as { handler: { loadHandlers: () => Promise<readonly ServedAction[]> } };
    const loaded = await handler.loadHandlers();
    expect(new Set(loaded)).toEqual(new Set(ACTIONS_BY_ENDPOINT[path]));
    expect(() => checkServes(path, loaded)).not.toThrow();
  });

  // The stack grants each endpoint's function ENDPOINT_PORTS: it must be what the actions use, no more, no less.
  it.each(ENDPOINTS.map((e) => e.path))('%s: its declared ports (lambdas/ports/function-ports.ts) are exactly its actions\' ports', (path) => {
    expect([...ENDPOINT_PORTS[path]].sort()).toEqual(portsOf(ACTIONS_BY_ENDPOINT[path]));
  });

  it('refuses a contract of another path and a declared one left out', () => {
    expect(() => checkServes('/api/farmer/dashboard', ACTIONS_BY_ENDPOINT['/api/user'])).toThrow(/of another path/);
    expect(() => checkServes('/api/user', ACTIONS_BY_ENDPOINT['/api/user'].slice(1))).toThrow(/declared but not served: USER_ONE_GET_BY_TOKEN/);
  });
});
