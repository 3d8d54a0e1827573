import { screen } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Farm } from '@shared/entities/farm';
import { SELECTED_FARM_COOKIE } from '../features/shell/utils/selected-farm';
import { build } from './build';
import { fakeApi, stubWebConfig, type FakeHandler } from './fake-api';
import { renderApp, testApiClient } from './render-app';

/**
 * For screens inside the farmer shell: before each test the farm is selected by its cookie
 * (farmer §4) and /config.json is stubbed; after it both are undone.
 */
export const withSelectedFarm = (farmId = 'farm-1'): void => {
  beforeEach(() => {
    document.cookie = `${SELECTED_FARM_COOKIE}=${encodeURIComponent(JSON.stringify({ _id: farmId }))}; path=/`;
    stubWebConfig();
  });
  afterEach(() => {
    document.cookie = `${SELECTED_FARM_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    vi.unstubAllGlobals();
  });
};

/** Date.now() and new Date() read `now` during each test (timers stay real, so findBy still waits). */
export const withNow = (now: number): void => {
  beforeEach(() => vi.useFakeTimers({ now, toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());
};

export interface FarmerScreenOptions {
  /** The user's farms (USER_ONE_GET_BY_TOKEN's listFarm); by default one farm, 'farm-1'. */
  readonly farms?: readonly Farm[];
  /**
   * What shows once the screen is ready: the name of its level-1 heading, or a query to await.
   * Without it the screen is rendered and not waited for.
   */
  readonly ready?: string | (() => Promise<unknown>);
}

/**
 * The whole app at `path` for a signed-in farmer: the shell's answers (the user with `farms`, no
 * unread alerts) and the screen's own `handlers` from a fake API, whose calls the test can read.
 */
export const openFarmerScreen = async (path: string, handlers: Readonly<Record<string, FakeHandler>>, { farms = [build.farm({ _id: 'farm-1' })], ready }: FarmerScreenOptions = {}) => {
  const api = fakeApi({
    USER_ONE_GET_BY_TOKEN: () => ({ user: build.user(), listFarm: farms, organization: null }),
    FARMER_NOTIFICATION_STATUS: () => 'NO',
    ...handlers,
  });
  const app = renderApp(path, { apiClient: testApiClient(api.fetch) });
  // The first test of a file loads the lazy route chunks cold, on a busy machine: more than findBy's 1 s.
  if (typeof ready === 'string') await screen.findByRole('heading', { level: 1, name: ready }, { timeout: 5_000 });
  else if (ready) await ready();
  return { ...app, api };
};

/** The farm the selected-farm cookie names now (what a screen switched to). */
export { readSelectedFarm } from '../features/shell/utils/selected-farm';
