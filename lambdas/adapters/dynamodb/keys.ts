/**
 * Key design of the Farms table (docs/architecture.md, "Data"). One place builds every key so
 * repositories never spell them twice.
 */
export const farmsKeys = {
  userProfile: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /** gsi1 of a profile: find a user by email. */
  userByEmail: (email: string) => ({ gsi1pk: `EMAIL#${email}`, gsi1sk: 'USER' }),
  /** A user's link to a farm; gsi1 lists a farm's users. */
  farmLink: (userId: string, farmId: string) => ({ pk: `USER#${userId}`, sk: `FARM#${farmId}` }),
  farmLinkIndex: (userId: string, farmId: string) => ({ gsi1pk: `FARM#${farmId}`, gsi1sk: `USER#${userId}` }),
  farm: (farmId: string) => ({ pk: `FARM#${farmId}`, sk: 'FARM' }),
  /** gsi1 of a farm: find it by supply number. */
  farmBySupplyNumber: (fonterraId: string) => ({ gsi1pk: `SUPPLY#${fonterraId.toUpperCase()}`, gsi1sk: 'FARM' }),
  knodeAsset: (farmId: string, assetName: string) => ({ pk: `FARM#${farmId}`, sk: `KNODE#${assetName}` }),
  device: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'DEVICE' }),
  /** gsi1 of a device: a farm's vats in vat order. */
  deviceByFarm: (farmId: string, vatNumber: number, deviceId: string) => ({
    gsi1pk: `FARM#${farmId}`,
    gsi1sk: `VAT#${vatNumber}#${deviceId}`,
  }),
  /** Fleet-wide listings (admin users, farms and devices) are one partition each in gsi1. */
  allOf: (kind: 'USER' | 'FARM' | 'DEVICE') => `ALL#${kind}`,
} as const;
