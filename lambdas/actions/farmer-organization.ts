import { randomUUID } from 'node:crypto';
import {
  farmerOrganizationContracts as contracts,
  type OrganizationList,
  type OrganizationRow,
  type OrganizationUser,
  type SummaryFarm,
} from '../../shared/api/actions/farmer-organization';
import { smsTotalFor } from '../../shared/constants';
import { MAX_ORGANIZATION_DEPTH, NON_INDEPENDENT, ORGANIZATION_MESSAGES as MSG, type Organization } from '../../shared/entities/organization';
import { normaliseEmail } from '../../shared/entities/user';
import { localMonth } from '../../shared/time/local-day';
import { serve, type ServedAction } from '../lib/dispatch';
import { ForbiddenError, ValidationError } from '../lib/errors';
import type { Ports } from '../ports/action-ports';
import { ownOrganizations } from './support/organizations';

const rowOf = (o: Organization): OrganizationRow => ({ _id: o._id, name: o.name, ...(o.fonterra_id ? { fonterra_id: o.fonterra_id } : {}), tag: o.tag, is_farm: false });

/** The organization and every organization under it (bounded by the tree's depth). */
const subtreeOf = async (orgs: Ports['organizations'], root: Organization): Promise<Organization[]> => {
  const found: Organization[] = [root];
  let level = [root];
  for (let depth = 1; depth < MAX_ORGANIZATION_DEPTH && level.length > 0; depth += 1) {
    level = (await Promise.all(level.map((o) => orgs.listSubOrganizations(o._id)))).flat().filter((o) => !found.some((f) => f._id === o._id));
    found.push(...level);
  }
  return found;
};

/**
 * The Summary (§2.12, §9): every farm of the organization and the organizations under it, with its
 * vats, its package's monthly SMS allowance and the texts the notifier counted this farm-local month.
 */
const summaryFarms = async (deps: Pick<Ports, 'organizations' | 'farms' | 'alerts' | 'now'>, root: Organization): Promise<SummaryFarm[]> => {
  const nodes = await subtreeOf(deps.organizations, root);
  const farmIds = [...new Set((await Promise.all(nodes.map((o) => deps.organizations.getContent(o._id)))).flatMap((c) => c.farmIds))];
  const farms = await deps.farms.getFarms(farmIds);
  const now = deps.now();
  const rows = await Promise.all(
    farms.map(async (farm): Promise<SummaryFarm> => {
      const month = localMonth(now, farm.timezone);
      const [devices, sent, saved] = await Promise.all([deps.farms.listDevicesOfFarm(farm._id), deps.alerts.smsCount(farm._id, month), deps.alerts.smsSavedCount(farm._id, month)]);
      return {
        _id: farm._id,
        fonterra_id: farm.fonterra_id,
        ...(farm.name ? { name: farm.name } : {}),
        package: farm.package,
        vats: devices.filter((d) => d.status === 1).length,
        sms_sent: sent,
        sms_total: smsTotalFor(farm.package),
        sms_saved: saved,
      };
    }),
  );
  return rows.sort((a, b) => a.fonterra_id.localeCompare(b.fonterra_id));
};

/**
 * /api/farmer/organization (farmer §2.12, §5, §6, §7). Dispatch has resolved the organization and
 * the caller's role in it (403 for a stranger, and for anyone but an Admin on the writes), so the
 * actions only apply the organization's own rules; a refusal stores nothing.
 */
export const farmerOrganizationHandlers: readonly ServedAction[] = [
  serve(contracts.ORGANIZATION_LIST, ['organizations', 'farms', 'alerts', 'now'], async (input, { org, caller, deps }): Promise<OrganizationList> => {
    if (!org) {
      const own = await ownOrganizations(deps.organizations, caller.userId);
      return { currentFarm: null, listSub: own.map(rowOf), listRole: [], listUser: [], listParent: [], role: null, summary: null };
    }
    const { organization, role, parents } = org;
    // The route's parent must be above the organization: another id is answered as a foreign organization.
    if (input.parent_id !== '' && !parents.some((p) => p._id === input.parent_id)) throw new ForbiddenError();
    const [content, subs] = await Promise.all([deps.organizations.getContent(organization._id), deps.organizations.listSubOrganizations(organization._id)]);
    const [farms, users, summary] = await Promise.all([
      deps.farms.getFarms(content.farmIds),
      Promise.all(content.roles.map((r) => deps.farms.getUser(r.user_id))),
      organization.package === NON_INDEPENDENT ? Promise.resolve(null) : summaryFarms(deps, organization),
    ]);
    const listUser: OrganizationUser[] = users.flatMap((u) => (u ? [{ _id: u._id, firstName: u.firstName, lastName: u.lastName, email: u.email }] : []));
    const farmRows: OrganizationRow[] = farms
      .map((f) => ({ _id: f._id, name: f.name ?? f.fonterra_id, fonterra_id: f.fonterra_id, tag: 'Farm' as const, is_farm: true }))
      .sort((a, b) => a.fonterra_id.localeCompare(b.fonterra_id));
    return {
      currentFarm: organization,
      listSub: [...subs.map(rowOf), ...farmRows],
      listRole: content.roles.filter((r) => listUser.some((u) => u._id === r.user_id)),
      listUser,
      listParent: parents.map((p) => ({ _id: p._id, name: p.name, ...(p.fonterra_id ? { fonterra_id: p.fonterra_id } : {}) })),
      role,
      summary: summary ? { package: organization.package, total_sms: smsTotalFor(organization.package), sms_saved: summary.reduce((t, f) => t + (f.sms_saved ?? 0), 0), farms: summary } : null,
    };
  }),

  serve(contracts.ORGANIZATION_ADD, ['organizationsWrite'], async (input, { org, caller, deps, log }) => {
    if (org.parents.length + 2 > MAX_ORGANIZATION_DEPTH) throw new ValidationError(MSG.tooDeep);
    if (input.package !== undefined && input.package !== NON_INDEPENDENT) throw new ValidationError(MSG.packageByProvider);
    const added: Organization = {
      _id: `org-${randomUUID()}`,
      name: input.name,
      tag: input.tag,
      contact: input.contact,
      address: input.address,
      email: input.email,
      phone: input.phone,
      package: NON_INDEPENDENT,
      parent_id: org.organization._id,
    };
    // Deleted since the rule read it (another Admin): answered as an unknown organization, nothing left behind.
    if (!(await deps.organizationsWrite.addSubOrganization(added))) throw new ForbiddenError();
    log.info('organization added', { organization: added._id, parent: org.organization._id, by: caller.userId });
    return added;
  }),

  serve(contracts.ORGANIZATION_EDIT, ['organizationsWrite'], async (input, { org, caller, deps, log }) => {
    const stored = org.organization;
    if (input.tag !== undefined && input.tag !== stored.tag) throw new ValidationError(MSG.tagLocked);
    if (input.package !== undefined && input.package !== stored.package) throw new ValidationError(MSG.packageByProvider);
    const edited: Organization = { ...stored, name: input.name, contact: input.contact, address: input.address, email: input.email, phone: input.phone };
    // Deleted since the rule read it (another Admin): answered as an unknown organization, not brought back.
    if (!(await deps.organizationsWrite.editOrganization(edited))) throw new ForbiddenError();
    log.info('organization edited', { organization: stored._id, by: caller.userId });
    return edited;
  }),

  serve(contracts.ORGANIZATION_DELETE, ['organizationsWrite'], async (_input, { org, caller, deps, log }) => {
    const id = org.organization._id;
    // Emptiness is decided by the repository's conditional writes, not by a read here: a
    // sub-organization or user added at the same moment is either seen or taken back.
    const outcome = await deps.organizationsWrite.deleteOrganization(id);
    if (outcome === 'notEmpty') throw new ValidationError(MSG.notEmpty);
    if (outcome === 'gone') throw new ForbiddenError();
    log.info('organization deleted', { organization: id, by: caller.userId });
    return 'success' as const;
  }),

  serve(contracts.ORGANIZATION_USER_ADD, ['organizationsWrite', 'farms'], async (input, { org, caller, deps, log }) => {
    const profiles = await deps.farms.findUsersByEmail(normaliseEmail(input.email));
    if (profiles.length === 0) throw new ValidationError(MSG.notRegistered);
    // Anyone can sign up with a colleague's address before they do: until its link is followed
    // (email_verify 2) the address is not known to be the person's, so only a verified profile is added.
    const user = profiles.find((p) => p.email_verify === 2);
    if (!user) throw new ValidationError(MSG.notVerified);
    const id = org.organization._id;
    // Adding someone already in it keeps their role (an Admin is not demoted by being added again).
    const added = await deps.organizationsWrite.addMember(id, user._id);
    if (added === 'gone') throw new ForbiddenError();
    log.info('organization user added', { organization: id, added: user._id, role: added.role, by: caller.userId });
    return { user_id: user._id, role: added.role };
  }),

  serve(contracts.ORGANIZATION_USER_UNLINK, ['organizationsWrite'], async (input, { org, caller, deps, log }) => {
    const id = org.organization._id;
    // The last-Admin rule is the repository's condition on the node, so two Admins unlinking each other cannot both succeed.
    const outcome = await deps.organizationsWrite.removeMember(id, input.user_id);
    if (outcome === 'notMember') throw new ValidationError(MSG.notMember);
    if (outcome === 'lastAdmin') throw new ValidationError(MSG.lastAdmin);
    if (outcome === 'gone') throw new ForbiddenError();
    log.info('organization user unlinked', { organization: id, unlinked: input.user_id, by: caller.userId });
    return 'success' as const;
  }),
];
