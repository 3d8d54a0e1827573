import * as z from 'zod';

/** The web app's runtime configuration: its own module, without zod (shared/web-config.ts). */
export { parseWebConfig, type WebConfig } from './web-config';

/**
 * The provider's contacts and the partner site (farmer §1, §2.1, §2.2, §2.16). `npx cdk deploy`
 * takes each from CDK context (-c supportUrl=… -c herdSiteUrl=… -c salesEmail=… -c
 * supportPhones='[{"label":…,"phone":…}]' -c liveMonitoringUrl=…), else these defaults; the local stack sets its own
 * (local/start.ts: the herd site is its local stand-in there).
 */
export const contactsSchema = z.object({
  supportUrl: z.string().url(),
  supportPhones: z.array(z.object({ label: z.string().min(1), phone: z.string().min(1) })).min(1),
  herdSiteUrl: z.string().url(),
  /** The sibling live-monitoring site (farmer §1); none by default, and then no link is shown. */
  liveMonitoringUrl: z.string().url().optional(),
  /** Where enquiries go (SURVEY_SUBMIT), subscribed to the enquiry topic. */
  salesEmail: z.email(),
  /** The dairy company's post-install form (operator §2 Help, §4 after a FON install); none by default. */
  installFormUrl: z.string().url().optional(),
});
export type Contacts = z.infer<typeof contactsSchema>;

export const DEFAULT_CONTACTS: Contacts = {
  supportUrl: 'https://www.vatman.co.nz/support',
  supportPhones: [
    { label: 'Vat-Man', phone: '0800 828 626' },
    { label: 'Live monitoring', phone: '0800 548 366' },
  ],
  herdSiteUrl: 'https://herd.vatman.co.nz/login/token',
  salesEmail: 'sales@vatman.co.nz',
};
