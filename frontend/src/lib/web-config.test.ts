import { describe, expect, it, vi } from 'vitest';
import { loadWebConfig, WebConfigError } from './web-config';
import { GOOD_WEB_CONFIG } from '../testing/build';

const good = GOOD_WEB_CONFIG;

const answering = (body: string, status = 200) => vi.fn<typeof fetch>(() => Promise.resolve(new Response(body, { status })));

const problemsOf = async (fetchFn: typeof fetch): Promise<readonly string[]> => {
  const err: unknown = await loadWebConfig(fetchFn).catch((e: unknown) => e);
  if (!(err instanceof WebConfigError)) throw new Error('expected a WebConfigError');
  return err.problems;
};

describe('loadWebConfig', () => {
  it('fetches /config.json and returns the parsed config', async () => {
    const fetchFn = answering(JSON.stringify({ ...good, cognitoEndpoint: 'http://127.0.0.1:9229' }));
    await expect(loadWebConfig(fetchFn)).resolves.toEqual({ ...good, cognitoEndpoint: 'http://127.0.0.1:9229' });
    expect(fetchFn.mock.calls[0]?.[0]).toBe('/config.json');
  });

  it('names every missing value', async () => {
    const { apiUrl: _a, userPoolId: _u, ...rest } = good;
    expect(await problemsOf(answering(JSON.stringify(rest)))).toEqual(['apiUrl is missing', 'userPoolId is missing']);
  });

  it('names a value that is present but wrong', async () => {
    const problems = await problemsOf(answering(JSON.stringify({ ...good, apiUrl: 'not a url' })));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^apiUrl: /);
  });

  it('checks the optional values that are present, and drops keys it does not know', async () => {
    const problems = await problemsOf(
      answering(JSON.stringify({ ...good, region: '', herdSiteUrl: 'herd', supportPhones: [{ label: 'Vat-Man' }] })),
    );
    expect(problems).toEqual(['region: must not be empty', 'herdSiteUrl: Invalid URL', 'supportPhones: entry 0 needs a label and a phone']);
    const phones = [{ label: 'Vat-Man', phone: '0800 828 626' }];
    await expect(loadWebConfig(answering(JSON.stringify({ ...good, supportPhones: phones, extra: 1 })))).resolves.toEqual({ ...good, supportPhones: phones });
  });

  it('names a body that is not an object', async () => {
    expect(await problemsOf(answering('[1]'))).toEqual(['(root): expected an object']);
  });

  it('reports an HTTP failure', async () => {
    expect(await problemsOf(answering('Not Found', 404))).toEqual(['/config.json answered HTTP 404']);
  });

  it('reports a body that is not JSON (an SPA fallback answering index.html)', async () => {
    expect(await problemsOf(answering('<!doctype html><html></html>'))).toEqual(['/config.json is not valid JSON']);
  });

  it('reports a network failure', async () => {
    const problems = await problemsOf(vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))));
    expect(problems).toEqual(['/config.json could not be fetched (Failed to fetch)']);
  });
});
