import { lazyApiHandler } from '../lib/lazy-handler';

/** /api/farmer/equipment (spec §7): the farm's cooling plant (EQUIPMENT_GET, _UPDATE) and its live vat values (EQUIPMENT_DATA_GET). */
export const handler = lazyApiHandler('/api/farmer/equipment', async () => (await import('../actions/farmer-equipment')).farmerEquipmentHandlers);
