import { startEarly, QUIET } from '../../../lib/early-call';
import type { ApiClient } from '../../../lib/api-client';
import { dashboardLastCall, dashboardLastQueryKey } from '../../../lib/queries/dashboard-last';
import { chooseFarm, readSelectedFarm } from '../utils/selected-farm';
import { currentUserCall, currentUserKey } from './current-user';

/**
 * Start-up's early calls for a screen of the farmer shell (lib/early-call.ts, issue 14): the
 * signed-in user at once and, on the milk dashboard, the vat cards' answer as soon as the user's
 * farm is known, the farm the shell will choose. Loaded by app/bootstrap.tsx only on the shell's
 * screens (it brings the contracts' schemas, which the sign-in page does without).
 */
export const startShellCalls = (client: ApiClient, onDashboard: boolean): void => {
  const storedFarmId = readSelectedFarm();
  const user = startEarly(currentUserKey(storedFarmId), () => currentUserCall(client, storedFarmId, QUIET));
  if (!onDashboard) return;
  void user
    .then((answer) => {
      const farm = answer.user ? chooseFarm(answer.listFarm, storedFarmId) : undefined;
      if (farm) startEarly(dashboardLastQueryKey(farm._id), () => dashboardLastCall(client, farm._id, QUIET));
    })
    .catch(() => undefined);
};
