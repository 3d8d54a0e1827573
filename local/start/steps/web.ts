import type { Contacts } from '../../../shared/config';
import type { CognitoStandIn } from '../../stand-ins/cognito';
import { startWebHosting } from '../../stand-ins/web-hosting';
import type { Closers } from '../closers';
import type { LocalConfig } from '../config';

/**
 * The web app and its runtime configuration. The app calls the API on its own origin (`/api/*`,
 * as the web distribution's API behaviour in AWS): no second host to connect to and no CORS
 * preflight before each call.
 */
export const startWeb = async (config: LocalConfig, closers: Closers, parts: { apiUrl: string; liveUrl: string; cognito: CognitoStandIn; contacts: Contacts; vapidPublicKey: string }) => {
  const { cognito, contacts } = parts;
  const hosting = await startWebHosting(
    config.ports.web,
    config.distDir,
    {
      apiUrl: config.webUrl,
      liveUrl: parts.liveUrl,
      region: cognito.region,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      cognitoEndpoint: cognito.endpoint,
      supportUrl: contacts.supportUrl,
      supportPhones: contacts.supportPhones,
      herdSiteUrl: contacts.herdSiteUrl,
      vapidPublicKey: parts.vapidPublicKey,
      ...(contacts.liveMonitoringUrl ? { liveMonitoringUrl: contacts.liveMonitoringUrl } : {}),
    },
    parts.apiUrl,
  );
  closers.addServer(hosting.server);
  return hosting;
};
