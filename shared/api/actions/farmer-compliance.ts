import * as z from 'zod';
import { COOLING_RULES } from '../../compliance/cooling-rules';
import { access, contract } from '../contract';
import { farmField } from '../fields';
import { dayField, rangeSchema, ruleResultSchema } from './farmer-activity';

/*
 * The cooling compliance record: FARMER_COMPLIANCE_RECORD on /api/farmer/activity.
 * Every milking of the period per vat, judged by the §9 cooling rules exactly as the milking page
 * judges it (lambdas/actions/support/milking-compliance.ts), with the exceptions the product recorded
 * around it. The web page builds the CSV and the PDF from this answer (docs/architecture.md,
 * "Cooling compliance record").
 */

const complianceRecordSchema = z.object({
  type: z.literal('FARMER_COMPLIANCE_RECORD'),
  farm: farmField,
  startDate: dayField('startDate'),
  endDate: dayField('endDate'),
});

/** What may explain a failed or undecided rule: the activities the product records (farmer §3). */
export const EXCEPTION_KINDS = ['battery_off', 'agitator_stop', 'outage'] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

/** A milking's verdict: every rule passed or not applicable; a rule failed; otherwise (pending, no data) undecided. */
const MILKING_VERDICTS = ['compliant', 'failed', 'undecided'] as const;
export type MilkingVerdict = (typeof MILKING_VERDICTS)[number];

const complianceExceptionSchema = z.object({ kind: z.enum(EXCEPTION_KINDS), start: z.string(), end: z.string().nullable() });

const complianceMilkingSchema = z.object({
  _id: z.string(),
  vat_number: z.number().int(),
  start: z.string(),
  end: z.string().nullable(),
  /** Litres in the vat at the end of the milking. */
  volume: z.number().nullable(),
  verdict: z.enum(MILKING_VERDICTS),
  rules: z.array(ruleResultSchema),
  /** The highest vat temperature (°C) after the first failure within the milking's window; failed milkings only. */
  peak_c: z.number().nullable(),
  exceptions: z.array(complianceExceptionSchema),
  /** The vat temperature from the start to the end of the window, thinned (failed milkings only, for the PDF's chart). */
  curve: z.array(z.object({ t: z.string(), c: z.number() })),
});
export type ComplianceMilking = z.infer<typeof complianceMilkingSchema>;

const complianceRecordResponseSchema = z.object({
  farm: z.object({ _id: z.string(), name: z.string(), supply_number: z.string(), timezone: z.string() }),
  period: rangeSchema,
  rules: z.array(z.object({ rule: z.enum(COOLING_RULES), text: z.string() })),
  generated_at: z.string(),
  vats: z.array(z.object({ vat_number: z.number().int(), milkings: z.array(complianceMilkingSchema) })),
});
export type ComplianceRecord = z.infer<typeof complianceRecordResponseSchema>;

export const farmerComplianceContracts = {
  FARMER_COMPLIANCE_RECORD: contract({
    path: '/api/farmer/activity',
    type: 'FARMER_COMPLIANCE_RECORD',
    input: complianceRecordSchema,
    answer: complianceRecordResponseSchema,
    access: access.farmMember(),
  }),
} as const;
