import { operatorContracts as contracts, WATCHMAN_PAGE_SIZE } from '../../shared/api/actions/operator';
import { settingsOfForm, withDefaults } from '../../shared/watchman/settings';
import { serve, type ServedAction } from '../lib/dispatch';

/** /api/watchman (operator §7): admin and installer pages (§6). */
export const watchmanActions: readonly ServedAction[] = [
  serve(contracts.GET_SETTINGS, ['watchman'], async (_input, { deps }) => ({ key: 'watchman' as const, settings: withDefaults(await deps.watchman.getSettings()) })),

  // The form's schema (shared/watchman/settings.ts, §5) has already refused an empty, non-numeric
  // or negative field with its message (422) before this runs: nothing is stored then.
  serve(contracts.SAVE_SETTINGS, ['watchmanWrite'], async (input, { deps, log, caller }) => {
    const settings = settingsOfForm(input as Record<string, unknown>);
    await deps.watchmanWrite.putSettings(settings);
    log.info('watchman settings saved', { by: caller.userId, ...settings });
    return 'success' as const;
  }),

  serve(contracts.GET_ACTIVITY, ['watchman'], async ({ page }, { deps }) => deps.watchman.listRuns(page ?? 0, WATCHMAN_PAGE_SIZE)),

  serve(contracts.GET_ACTIVITY_SUMMARY, ['watchman'], async (_input, { deps }) => {
    const [count, open_cases] = await Promise.all([deps.watchman.countRuns(), deps.watchman.listOpenCases()]);
    return { count, open_cases };
  }),
];
