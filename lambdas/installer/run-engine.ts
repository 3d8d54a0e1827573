import type { Logger } from '../lib/logger';
import { INSTALLER_TIMEOUT_S } from '../ports/function-settings';
import type { UnitProvisioning } from '../ports/iot';
import type { InstallRepository, InstallRun } from '../ports/installs';

/**
 * How long an invocation holds a run it works on: the function's timeout plus a margin, so once it
 * has passed the invocation is certainly gone (finished, failed or killed) and a retry or the
 * reconciler may take the run. Each recorded step renews it.
 */
export const RUN_LEASE_MS = (INSTALLER_TIMEOUT_S + 7) * 1000;

export interface WorkflowDeps {
  readonly installs: InstallRepository;
  readonly provisioning: UnitProvisioning;
  readonly now: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** A run in hand: the record as last saved, and what lives only in this invocation (a new private key). */
export interface RunContext {
  run: InstallRun;
  privateKey?: string;
  certificatePem?: string;
}

/** A step that cannot go on because of someone else's record: the install is refused, with this message. */
export class Refused extends Error {}
/** Another invocation saved the run since this one read it (this one's lease had ended): it stops here. */
export class LostRun extends Error {
  constructor() {
    super('another invocation took this run over');
  }
}

/** One step of a workflow's table: what it does, and its undo (absent: nothing to undo). */
export interface Step {
  readonly name: string;
  readonly run: (c: RunContext, record: (patch: Partial<InstallRun>) => Promise<void>) => Promise<void>;
  readonly undo?: (c: RunContext) => Promise<void>;
}

/**
 * A table-driven state machine over a run record (docs/decisions/040-install-workflow-table-driven.md):
 * `step` counts the steps done; each step done is saved (conditional on the version read, which
 * renews the lease) before the next begins, so a retry or the reconciler starts exactly where
 * the last invocation stopped. Every step is idempotent, so one that ran but was not recorded runs
 * again safely.
 */
export const runEngine = (deps: WorkflowDeps, steps: readonly Step[]) => {
  const save = async (c: RunContext, patch: Partial<InstallRun>) => {
    const now = deps.now();
    const saved = await deps.installs.saveRun({ ...c.run, ...patch, updated_at: now.toISOString(), lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString() });
    if (!saved) throw new LostRun();
    c.run = saved;
  };
  /**
   * The step after the last recorded one may have run (in part) before the invocation stopped or
   * failed: its undo runs too. Every undo is safe on what is not there (conditional deletes,
   * detaches and deletes that take 'not found' as done).
   */
  const undoPending = async (c: RunContext) => {
    if (c.run.step < steps.length) await steps[c.run.step]?.undo?.(c);
  };
  return {
    steps,
    save,
    /** Runs the steps not yet done, then marks the run done. */
    async forward(c: RunContext): Promise<void> {
      if (c.run.state !== 'running') await save(c, { state: 'running' });
      while (c.run.step < steps.length) {
        const step = steps[c.run.step] as Step;
        await step.run(c, (patch) => save(c, patch));
        await save(c, { step: c.run.step + 1 });
      }
      await save(c, { state: 'done' });
    },
    /**
     * Undoes the steps done, newest first, each recorded, then deletes the run. An undo that fails
     * leaves the run 'undoing' with the error: its lease ends and the reconciler goes on from there.
     */
    async backward(c: RunContext, error?: string): Promise<void> {
      await save(c, { state: 'undoing', ...(error ? { error } : {}) });
      await undoPending(c);
      while (c.run.step > 0) {
        const step = steps[c.run.step - 1] as Step;
        try {
          await step.undo?.(c);
        } catch (err) {
          deps.log.error('install workflow: undo failed', { imei: c.run.imei, kind: c.run.kind, step: step.name, err });
          await save(c, { error: `undo of ${step.name} failed: ${String((err as Error).message ?? err)}` }).catch(() => undefined);
          throw err;
        }
        await save(c, { step: c.run.step - 1 });
      }
      await deps.installs.deleteRun(c.run);
    },
    /** Undoes the steps from `to` on (newest first) and records the run back at `to`. */
    async back(c: RunContext, to: number): Promise<void> {
      await undoPending(c);
      while (c.run.step > to) {
        await steps[c.run.step - 1]?.undo?.(c);
        await save(c, { step: c.run.step - 1 });
      }
    },
  };
};

/** Takes a run whose lease has ended: false when another invocation took it first. */
export const takeOver = async (deps: WorkflowDeps, run: InstallRun): Promise<RunContext | undefined> => {
  const now = deps.now();
  const saved = await deps.installs.saveRun({ ...run, updated_at: now.toISOString(), lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString() });
  return saved ? { run: saved } : undefined;
};

export const leaseLive = (deps: Pick<WorkflowDeps, 'now'>, run: InstallRun): boolean => Date.parse(run.lease_until) > deps.now().getTime();

export const newRun = (deps: Pick<WorkflowDeps, 'now'>, fields: Pick<InstallRun, 'imei' | 'kind' | 'request_id'> & Partial<InstallRun>): InstallRun => {
  const now = deps.now();
  return { state: 'running', step: 0, version: 0, created_at: now.toISOString(), updated_at: now.toISOString(), lease_until: new Date(now.getTime() + RUN_LEASE_MS).toISOString(), ...fields };
};
