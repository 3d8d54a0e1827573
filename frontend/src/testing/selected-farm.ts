import { afterEach, beforeEach, vi } from 'vitest';
import { SELECTED_FARM_COOKIE } from '../features/shell/utils/selected-farm';
import { stubWebConfig } from './fake-api';

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
