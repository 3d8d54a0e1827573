import { makeInstallWorkflow } from './install-workflow';
import { makeReissue } from './reissue';
import type { WorkflowDeps } from './run-engine';

interface ReconcileOutcome {
  readonly finished: number;
  readonly undone: number;
  /** Runs another invocation took first, or whose repair failed (tried again next time). */
  readonly left: number;
}

/**
 * The install reconciler (docs/decisions/040): every run whose lease has ended, i.e. whose
 * invocation stopped part way (a timeout, a crash, an undo that failed), is finished when it had
 * passed its commit point (the unit written; for a reissue the unit naming the new certificate)
 * and undone otherwise. Runs on a schedule (cdk/lib/constructs/install-reconciler.ts; the local
 * scheduler) and, for one unit, on the installer's retry (lambdas/installer/install-workflow.ts).
 */
export const makeReconciler = (deps: WorkflowDeps) => {
  const install = makeInstallWorkflow(deps);
  const reissue = makeReissue(deps);
  return {
    async run(): Promise<ReconcileOutcome> {
      const counts = { finished: 0, undone: 0, left: 0 };
      const stale = await deps.installs.listStaleRuns(deps.now().toISOString());
      for (const run of stale) {
        try {
          const outcome = run.kind === 'install' ? await install.repair(run) : await reissue.repair(run);
          if (outcome === 'busy') counts.left += 1;
          else counts[outcome] += 1;
          deps.log.info('install reconciler', { imei: run.imei, kind: run.kind, request: run.request_id, step: run.step, state: run.state, outcome });
        } catch (err) {
          counts.left += 1;
          deps.log.error('install reconciler: repair failed; tried again next run', { imei: run.imei, kind: run.kind, request: run.request_id, err });
        }
      }
      return counts;
    },
  };
};
