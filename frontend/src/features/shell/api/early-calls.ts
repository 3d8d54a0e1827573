import { startEarly, QUIET } from '../../../lib/early-call';
import type { ApiClient } from '../../../lib/api-client';
import { dashboardLastCall, dashboardLastQueryKey } from '../../../lib/queries/dashboard-last';
import { listenForAnswerNotes } from '../../../lib/connection-state';
import { chooseFarm, readSelectedFarm } from '../utils/selected-farm';
import { currentUserCall, currentUserKey } from './current-user';

/**
 * Start-up's early calls for a screen of the farmer shell (lib/early-call.ts, issue 14): the
 * signed-in user at once and, on the milk dashboard, the vat cards' answer for the farm the shell
 * will choose: the stored farm (farmer §4) alongside the user's call, since the shell keeps it when
 * it is among the user's farms; when it is not (or none is stored), the farm the user's answer
 * gives. An early answer nobody takes is dropped (a stored farm no longer the user's answers 403,
 * quietly). Loaded by app/bootstrap.tsx only on the shell's screens (it brings the contracts'
 * schemas, which the sign-in page does without).
 */
export const startShellCalls = (client: ApiClient, onDashboard: boolean): void => {
  // The offline app's worker tells the page which answers came from its cache (the dashboard's
  // banner): heard from the first call on.
  listenForAnswerNotes();
  const storedFarmId = readSelectedFarm();
  const user = startEarly(currentUserKey(storedFarmId), () => currentUserCall(client, storedFarmId, QUIET));
  if (!onDashboard) return;
  const vatsOf = (farmId: string) => startEarly(dashboardLastQueryKey(farmId), () => dashboardLastCall(client, farmId, QUIET));
  if (storedFarmId) vatsOf(storedFarmId);
  void user
    .then((answer) => {
      const farm = answer.user ? chooseFarm(answer.listFarm, storedFarmId) : undefined;
      if (farm && farm._id !== storedFarmId) vatsOf(farm._id);
    })
    .catch(() => undefined);
};
