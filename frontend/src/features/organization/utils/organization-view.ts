import type { OrganizationList } from '@shared/api/actions/farmer-organization';

/** The breadcrumb's label of an organization: its name, else its supply id (farmer §2.12). */
export const labelOf = (o: { readonly name?: string; readonly fonterra_id?: string | undefined; readonly _id: string }): string =>
  o.name?.trim() || o.fonterra_id || o._id;

/** Texts of a month as the Summary shows them: "2 of 120". */
export const smsText = (sent: number, total: number): string => `${sent} of ${total}`;

/** Whether the caller may change things here (farmer §6: the organization role Admin). */
export const canEdit = (answer: Pick<OrganizationList, 'role'>): boolean => answer.role === 'Admin';
