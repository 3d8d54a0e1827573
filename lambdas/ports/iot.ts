import type { UnitCheck } from '../../shared/installer/unit-check';

export type DeviceAnswer = { readonly answered: true; readonly return_value: string } | { readonly answered: false };

/**
 * Where a vat's controller settings go: its farm's controller unit (the spec's particle: one thing
 * for up to 4 vats), naming the vat; a vat of a farm without a unit record is its own thing.
 */
export type SettingsTarget = { readonly unit: string; readonly vat: number } | { readonly thing: string };

/** A device's answer to a command (dts/<thing>/cmd/reply), kept under its request id for the call waiting on it; false when it names none. */
export interface DeviceReplies {
  store(thing: string, reply: unknown): Promise<boolean>;
}

export interface DeviceCommands {
  sendSettings(target: SettingsTarget, settings: Record<string, number>): Promise<DeviceAnswer>;
}

/** Check Install's question to a farm's unit (shared/installer/unit-check.ts): its answer, or none within the timeout. */
export interface UnitChecks {
  check(unit: string, check: UnitCheck): Promise<DeviceAnswer>;
}

interface UnitCertificate {
  readonly certificateId: string;
  readonly certificateArn: string;
  readonly certificatePem: string;
  readonly privateKey: string;
}

/**
 * Provisioning a farm's controller unit on IoT Core: one thing per unit, one
 * certificate, the device policy (which allows only the thing's own topics) attached to the
 * certificate and the certificate to the thing. Each step has its undo, so NEW_INSTALL leaves
 * nothing half-made when a later step fails; the detaches and deletes take what is already gone as
 * done, so an undo can run again (lambdas/installer/).
 */
export interface UnitProvisioning {
  /** The device policy every unit's certificate gets (IOT_DEVICE_POLICY). */
  readonly policyName: string;
  createThing(thingName: string, attributes: Record<string, string>): Promise<void>;
  updateThing(thingName: string, attributes: Record<string, string>): Promise<void>;
  deleteThing(thingName: string): Promise<void>;
  /**
   * A new key pair and certificate, INACTIVE: it can do nothing until activateCertificate, so one
   * made by an invocation killed before it recorded the id is inert (docs/decisions/040).
   */
  createCertificate(): Promise<UnitCertificate>;
  activateCertificate(certificateId: string): Promise<void>;
  /** Deactivates then deletes (IoT deletes only an inactive certificate); one already gone is no error. */
  deleteCertificate(certificateId: string): Promise<void>;
  /** Deactivates (one already gone is no error): IoT Core then refuses connections with it (a revoked unit certificate is kept, inactive, for the record). */
  deactivateCertificate(certificateId: string): Promise<void>;
  /** The certificates attached to the thing (ListThingPrincipals), by id and ARN; none for a thing that does not exist. */
  thingCertificates(thingName: string): Promise<{ readonly id: string; readonly arn: string }[]>;
  attachPolicy(certificateArn: string): Promise<void>;
  detachPolicy(certificateArn: string): Promise<void>;
  attachThingPrincipal(thingName: string, certificateArn: string): Promise<void>;
  detachThingPrincipal(thingName: string, certificateArn: string): Promise<void>;
  /** The account's ATS data endpoint, where the unit connects. */
  dataEndpoint(): Promise<string>;
}

/** A registered thing and the vat device it names (its `device_id` attribute). */
export interface RegisteredThing {
  readonly thingName: string;
  readonly deviceId: string | undefined;
}

/** The device registry the fleet's names come from (operator §2 'Load name from Particle'). */
export interface ThingRegistry {
  listThings(): Promise<RegisteredThing[]>;
}
