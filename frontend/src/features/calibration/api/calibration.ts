import { calibrationContracts as c } from '@shared/api/actions/calibration';
import { installerContracts } from '@shared/api/actions/installer';
import type { ApiClient } from '../../../lib/api-client';

/** COLLECTIONS (operator §7): RECENT (the last 30 days) or ALL, joined with the company's dockets. */
export const loadCollections = (client: ApiClient, amount: 'RECENT' | 'ALL', supplyNumber: string, vatNumber: number) =>
  client.call(c.COLLECTIONS, { amount, supplyNumber, vatNumber });

/** VAT_CONFIG: the vat's stored configuration. */
export const loadVatConfig = (client: ApiClient, supplyNumber: string, vatNumber: number) => client.call(c.VAT_CONFIG, { supplyNumber, vatNumber });

/** VAT_SETTINGS on /api/installer (calibration's Apply): stores the config and pushes it to the unit. */
export const applyVatSettings = (
  client: ApiClient,
  s: { supplyNumber: string; vatNumber: number; vatSize: number; height: number; diameter: number; wedgeHeight: number; volumeOffset: number },
) => client.call(installerContracts.VAT_SETTINGS, s);
