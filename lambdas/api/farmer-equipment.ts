import { farmerEquipmentActions } from '../actions/farmer-equipment';
import { apiHandler } from '../lib/api-handler';

/** /api/farmer/equipment (spec §7): the farm's cooling plant (EQUIPMENT_GET, _UPDATE) and its live vat values (EQUIPMENT_DATA_GET). */
export const handler = apiHandler('/api/farmer/equipment', farmerEquipmentActions);
