import { DEVICE_LIST, FARMER_DASHBOARD_LAST, USER_ONE_GET_BY_TOKEN } from '@shared/api/actions/start-up';
import { checkAnswer, type ApiClient } from '../../../lib/api-client';
import { startEarly } from '../../../lib/early-call';
import { listenForAnswerNotes } from '../../../lib/connection-state';
import { chooseFarm, readSelectedFarm } from '../utils/selected-farm';

/**
 * Start-up's early calls for a screen of the farmer shell (lib/early-call.ts): the
 * signed-in user at once and, on the milk dashboard, the vat cards' answer for the farm the shell
 * will choose: the stored farm (farmer §4) alongside the user's call, since the shell keeps it when
 * it is among the user's farms; when it is not (or none is stored), the farm the user's answer
 * gives, once the user's contract has checked it. An early answer nobody takes is dropped (a stored
 * farm no longer the user's answers 403, quietly). On the device list, the list of active devices
 * (an operator's; a farmer's 403 is dropped likewise and the screen asks again itself). Loaded by app/bootstrap.tsx only on the shell's
 * screens, in a small chunk of its own: the calls go out by address, not waiting for the screen's
 * code or the contracts' zod schemas (the build's 'early-calls' chunk, vite.config.ts).
 */
export const startShellCalls = (client: ApiClient, screen: { readonly dashboard: boolean; readonly devices: boolean }): void => {
  // The offline app's worker tells the page which answers came from its cache (the dashboard's
  // banner): heard from the first call on.
  listenForAnswerNotes();
  const storedFarmId = readSelectedFarm();
  const user = startEarly(client, USER_ONE_GET_BY_TOKEN, { farm: storedFarmId });
  // The list the device screen shows first (the Active devices: deviceListQuery's fields).
  if (screen.devices) startEarly(client, DEVICE_LIST, { isRetired: 1 });
  if (!screen.dashboard) return;
  const vatsOf = (farm: string) => startEarly(client, FARMER_DASHBOARD_LAST, { farm });
  if (storedFarmId) vatsOf(storedFarmId);
  void Promise.all([user, import('@shared/api/actions/user')])
    .then(([body, { userContracts }]) => {
      const answer = checkAnswer(userContracts.USER_ONE_GET_BY_TOKEN, body);
      const farm = answer.user ? chooseFarm(answer.listFarm, storedFarmId) : undefined;
      if (farm && farm._id !== storedFarmId) vatsOf(farm._id);
    })
    .catch(() => undefined);
};
