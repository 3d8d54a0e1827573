import { operatorContracts as contracts, WATCHMAN_PAGE_SIZE } from '../../shared/api/actions/operator';
import { AUDIT_PAGE } from '../../shared/entities/audit';
import { settingsOfForm, withDefaults, WATCHMAN_LABELS, type WatchmanSettings } from '../../shared/watchman/settings';
import { serve, type ServedAction } from '../lib/dispatch';
import { commitChange } from './support/audit';

/** The fields a save changed, as the form labels them: what the entry's before and after show. */
const changedText = (from: WatchmanSettings, to: WatchmanSettings): { before: string; after: string } => {
  const keys = (Object.keys(to) as (keyof WatchmanSettings)[]).filter((k) => from[k] !== to[k]);
  const side = (s: WatchmanSettings) => keys.map((k) => `${WATCHMAN_LABELS[k]}: ${String(s[k])}`).join('; ');
  return { before: side(from), after: side(to) };
};

/** /api/watchman (operator §7): admin and installer pages (§6). */
export const watchmanHandlers: readonly ServedAction[] = [
  serve(contracts.GET_SETTINGS, ['watchman'], async (_input, { deps }) => ({ key: 'watchman' as const, settings: withDefaults(await deps.watchman.getSettings()) })),

  // The form's schema (shared/watchman/settings.ts, §5) has already refused an empty, non-numeric
  // or negative field with its message (422) before this runs: nothing is stored then.
  serve(contracts.SAVE_SETTINGS, ['farms', 'watchman', 'watchmanSettingsChanges', 'now'], async (input, { deps, log, caller }) => {
    const settings = settingsOfForm(input as Record<string, unknown>);
    const saved = withDefaults(await deps.watchman.getSettings());
    const { before, after } = changedText(saved, settings);
    // A save that changes nothing stores nothing: there is no change to put on record.
    if (!before && !after) return 'success' as const;
    await commitChange({ farms: deps.farms, now: deps.now, auditedChanges: deps.watchmanSettingsChanges }, caller, 'watchman', { action: 'SAVE_SETTINGS', target: 'Watchman settings', before, after }, [{ kind: 'watchmanSettings', settings }]);
    log.info('watchman settings saved', { by: caller.userId, ...settings });
    return 'success' as const;
  }),

  serve(contracts.GET_ACTIVITY, ['watchman'], async ({ page }, { deps }) => deps.watchman.listRuns(page ?? 0, WATCHMAN_PAGE_SIZE)),

  serve(contracts.GET_ACTIVITY_SUMMARY, ['watchman', 'audit'], async (_input, { deps }) => {
    const [count, open_cases, changes] = await Promise.all([deps.watchman.countRuns(), deps.watchman.listOpenCases(), deps.audit.list('watchman', AUDIT_PAGE)]);
    return { count, open_cases, settings_changes: changes.entries };
  }),
];
