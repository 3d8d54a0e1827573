import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import webpush from 'web-push';

/** The local stack's Web Push configuration besides the keys (in AWS: CDK context and the stack). */
export const PUSH_LOCAL_ENV = {
  VAPID_PRIVATE_KEY_PARAMETER: '/vatman/vapid-private-key',
  VAPID_SUBJECT: 'mailto:alerts@vatman.local',
  // Only here: the push-service stand-in listens on plain http on this machine.
  PUSH_ALLOW_LOCAL_ENDPOINTS: '1',
} as const;

/** The stack's VAPID key pair, made once and kept in `file` (a new pair would orphan every browser's subscription). */
export const localVapidKeys = (file: string): { publicKey: string; privateKey: string } => {
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  }
  const keys = webpush.generateVAPIDKeys();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
};
