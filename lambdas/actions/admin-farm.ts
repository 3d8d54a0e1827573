import { adminFarmContracts as contracts, billingCsv, DEAD_LETTER_PAGE, FARM_FLAGS, type DeadLetter, listed, matchesDairyFilter, MSG_SUCCESS, parseMilkingWindowCsv, type AdminFarm, type FarmFlag } from '../../shared/api/actions/admin-farm';
import { smsTotalFor } from '../../shared/constants';
import { AUDIT_PAGE } from '../../shared/entities/audit';
import type { Device } from '../../shared/entities/device';
import { supplierOf, type Farm } from '../../shared/entities/farm';
import type { OrganizationPackage } from '../../shared/entities/organization';
import type { Ports } from '../ports/action-ports';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import { AUDITED_WRITES_MAX } from '../ports/audit';
import { commitChange } from './support/audit';

const MSG_NO_SUCH_FARM = 'No such farm.';

/** The admin card's view of a farm (operator §3 Farm (admin)): named fields only. */
const adminFarmView = (f: Farm, devices: readonly Device[]): AdminFarm => ({
  _id: f._id,
  fonterra_id: f.fonterra_id,
  name: f.name ?? null,
  supplier: supplierOf(f),
  devices: devices.map((d) => ({ _id: d._id, name: d.name, vat_number: d.vat_number, status: d.status })),
  auto_check: f.auto_check,
  fonterra_api_status: f.fonterra_api_status,
  harvest: f.harvest,
  package: f.package,
  install_packege: f.install_packege ?? f.package,
  install_numVats: f.install_numVats,
  install_date: f.install_date ?? null,
});

/**
 * The farms an organization of that package holds (operator §7 farm_finance; the packages are the
 * organizations', farmer §9). Read only when the filter is set: one query per farm, one read per
 * organization.
 */
const withFinancePackage = async (organizations: Ports['organizations'], farms: readonly Farm[], finance: OrganizationPackage): Promise<Farm[]> => {
  const packages = new Map<string, Promise<OrganizationPackage | undefined>>();
  const packageOf = (orgId: string) => {
    if (!packages.has(orgId)) packages.set(orgId, organizations.getOrganization(orgId).then((o) => o?.package));
    return packages.get(orgId) as Promise<OrganizationPackage | undefined>;
  };
  const held = await Promise.all(farms.map(async (f) => (await Promise.all((await organizations.listOrganizationIdsOfFarm(f._id)).map(packageOf))).includes(finance)));
  return farms.filter((_f, i) => held[i]);
};

const onOff = (v: boolean) => (v ? 'on' : 'off');
/** One problem is a message, several a list (as dispatch answers a schema's problems). */
const oneOrList = (messages: readonly string[]): string | readonly string[] => (messages.length === 1 ? (messages[0] as string) : messages);

/** One flag's action (operator §4: each checkbox click sends the new value for that farm). */
const flagAction = <T extends (typeof FARM_FLAGS)[number]>(flag: T) =>
  serve(contracts[flag.type], ['farms', 'flagEditors', 'auditedChanges', 'now'], async (input, { deps, caller }) => {
    // operator §6 limits these to a fixed list of user ids: the list is configuration, enforced here.
    if (!deps.flagEditors.allows(caller.userId)) throw new ForbiddenError();
    const field: FarmFlag = flag.field;
    const value = (input as unknown as Record<FarmFlag, boolean>)[field];
    const before = await deps.farms.getFarm(input._id);
    if (!before) throw new ValidationError(MSG_NO_SUCH_FARM);
    if (before[field] === value) return adminFarmView(before, await deps.farms.listDevicesOfFarm(before._id));
    // The flag and its entry land together, and only over the value the entry calls "before".
    await commitChange(deps, caller, 'farm', { action: flag.type, target: before.fonterra_id, before: `${flag.label} ${onOff(before[field])}`, after: `${flag.label} ${onOff(value)}` }, [
      { kind: 'farmFlag', farmId: before._id, flag: field, value, before: before[field] },
    ]);
    // An operator's API status off holds the dairy sync against Watchman's automatic on; on releases it.
    const after: Farm = { ...before, [field]: value, ...(field === 'fonterra_api_status' ? { fonterra_sync_held: !value } : {}) };
    return adminFarmView(after, await deps.farms.listDevicesOfFarm(after._id));
  });

/** /api/admin/farm (operator spec §7): Admin only (the contracts' rule). */
export const adminFarmHandlers: readonly ServedAction[] = [
  serve(contracts.FARM_LIST, ['farms', 'flagEditors', 'organizations'], async ({ dairy_current, farm_type, farm_id, farm_finance }, { deps, caller }) => {
    const [farms, devices] = await Promise.all([deps.farms.listFarms(), deps.farms.listDevices()]);
    const search = farm_id.toUpperCase();
    const matching = farms.filter((f) => matchesDairyFilter(f, dairy_current) && (farm_type === 'ALL' || f.package === farm_type) && f.fonterra_id.toUpperCase().includes(search));
    const shown = (farm_finance === 'ALL' ? matching : await withFinancePackage(deps.organizations, matching, farm_finance)).sort((a, b) => a.fonterra_id.localeCompare(b.fonterra_id));
    const ids = new Set(shown.map((f) => f._id));
    const listDevice = devices.filter((d) => ids.has(d.farm_id)).sort((a, b) => a.vat_number - b.vat_number);
    return {
      listFarm: shown.map((f) => adminFarmView(f, listDevice.filter((d) => d.farm_id === f._id))),
      listDevice,
      flags_editable: deps.flagEditors.allows(caller.userId),
    };
  }),
  ...FARM_FLAGS.map(flagAction),
  serve(contracts.FARMS_SETTINGS_GET, ['farms', 'milkingWindows'], async (_input, { deps }) => {
    const farms = await deps.farms.listFarms();
    const windows = await deps.milkingWindows.list(farms.map((f) => f._id));
    const supply = new Map(farms.map((f) => [f._id, f.fonterra_id]));
    return windows
      .map((w) => ({ farm: supply.get(w.farm_id) ?? w.fonterra_id, farm_id: w.farm_id, buffer_duration: w.buffer_duration, end_of_milking: w.end_of_milking, updated_at: w.updated_at }))
      .sort((a, b) => a.farm.localeCompare(b.farm));
  }),
  serve(contracts.FARM_BILLING_OUTPUT, ['farms', 'alerts'], async ({ month }, { deps }) => {
    const farms = await deps.farms.listFarms();
    // Texts are counted per farm-local month (the alert notifier's allowance).
    const rows = await Promise.all(farms.map(async (farm) => ({ farm, smsSent: await deps.alerts.smsCount(farm._id, month), smsTotal: smsTotalFor(farm.package) })));
    return { filename: `billing-${month}.csv`, csv: billingCsv(month, rows) };
  }),
  serve(contracts.FARM_AUDIT_LIST, ['audit'], async (_input, { deps }) => (await deps.audit.list('farm', AUDIT_PAGE)).entries),

  serve(contracts.FARM_DELIVERY_DEAD_LETTERS, ['farms', 'alerts'], async (_input, { deps }) =>
    Promise.all(
      (await deps.alerts.listDeadLetters(DEAD_LETTER_PAGE)).map(async (d): Promise<DeadLetter> => {
        const [farm, user, n, all] = await Promise.all([
          deps.farms.getFarm(d.farm_id),
          deps.farms.getUser(d.user_id),
          deps.alerts.get(d.farm_id, d.alert_id),
          deps.alerts.listDeliveries(d.farm_id, d.alert_id),
        ]);
        return {
          settled_at: d.settled_at ?? d.due_at,
          farm_id: d.farm_id,
          farm: farm ? `${farm.name ?? ''} (${farm.fonterra_id})`.trim() : d.farm_id,
          ...(farm?.timezone ? { timezone: farm.timezone } : {}),
          alert_id: d.alert_id,
          ...(n ? { type: n.type, vat_number: n.device.vat_number } : {}),
          recipient: user ? (d.channel === 'sms' ? user.phone : d.channel === 'push' ? `${user.email} (browser)` : user.email) : d.user_id,
          channel: d.channel,
          attempts: d.attempts,
          last_error: d.last_error ?? '',
          fallback: all.some((x) => x.user_id === d.user_id && x.channel !== d.channel && x.fallback === true),
        };
      }),
    ),
  ),

  serve(contracts.FARMS_SETTINGS_UPLOAD, ['farms', 'milkingWindows', 'auditedChanges', 'now'], async ({ farms_settings }, { deps, caller }) => {
    // Every row is judged before anything is stored: one bad row and nothing changes.
    const { rows, errors } = parseMilkingWindowCsv(farms_settings.content);
    if (errors.length) throw new ValidationError(oneOrList(errors));
    const bySupply = new Map((await deps.farms.listFarms()).map((f) => [f.fonterra_id.toUpperCase(), f]));
    const unknown = rows.filter((r) => !bySupply.has(r.supply_number)).map((r) => `Row ${r.row}: no farm has supply number ${r.supply_number}`);
    if (unknown.length) throw new ValidationError(oneOrList(listed(unknown)));

    const targets = rows.map((r) => ({ row: r, farm: bySupply.get(r.supply_number) as Farm }));
    const before = new Map((await deps.milkingWindows.list(targets.map((t) => t.farm._id))).map((w) => [w.farm_id, w]));
    const at = deps.now().toISOString();
    const text = (w: { buffer_duration: number; end_of_milking: string } | undefined) => (w ? `${w.buffer_duration} min, ${w.end_of_milking}` : 'none');
    const summary = (part: typeof targets, pick: (t: (typeof targets)[number]) => string) => {
      const all = part.map(pick).join('; ');
      return all.length > 500 ? `${all.slice(0, 497)}...` : all;
    };
    // A transaction takes at most 100 items: each part of a large file is its windows and its own
    // entry together, so whatever a failure part-way leaves written is on record, and the same
    // file imported again finishes the job (decision 050).
    const parts = Math.ceil(targets.length / AUDITED_WRITES_MAX);
    for (let p = 0; p < parts; p += 1) {
      const part = targets.slice(p * AUDITED_WRITES_MAX, (p + 1) * AUDITED_WRITES_MAX);
      const rowsText = `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`;
      const target = parts === 1 ? `${farms_settings.filename} (${rowsText})` : `${farms_settings.filename} (part ${p + 1} of ${parts}: rows ${part[0]?.row.row}-${part.at(-1)?.row.row} of ${rowsText})`;
      await commitChange(
        deps,
        caller,
        'farm',
        {
          action: 'FARMS_SETTINGS_UPLOAD',
          target,
          before: summary(part, (t) => `${t.farm.fonterra_id} ${text(before.get(t.farm._id))}`),
          after: summary(part, (t) => `${t.farm.fonterra_id} ${text(t.row)}`),
        },
        part.map(({ row, farm }) => ({
          kind: 'milkingWindow' as const,
          window: { farm_id: farm._id, fonterra_id: farm.fonterra_id, buffer_duration: row.buffer_duration, end_of_milking: row.end_of_milking, updated_at: at, updated_by: caller.userId },
        })),
      );
    }
    return { message: MSG_SUCCESS, imported: rows.length };
  }),
];
