import { unitThingName } from '../../shared/entities/install';
import type { InstallRun } from '../ports/installs';
import { certificateSteps, revokeOthers } from './certificate-steps';
import { leaseLive, newRun, Refused, runEngine, takeOver, type RunContext, type Step, type WorkflowDeps } from './run-engine';

interface Reissued {
  readonly certificateId: string;
  readonly certificatePem: string;
  readonly privateKey: string;
  /** The certificates deactivated and detached. */
  readonly revoked: readonly string[];
}

/**
 * REISSUE_CERTIFICATE (and a retried install whose answer was lost): a new key pair for the unit,
 * then the old certificate revoked, as a run of its own (`INSTALLRUN#<imei>` REISSUE) so a crash
 * part way is finished or undone like an install's. The unit record's certificate is the commit
 * point: moved to the new one (conditionally, so of two reissues one wins), the old is revoked;
 * not moved, the new one is undone.
 */
export const makeReissue = (deps: WorkflowDeps) => {
  const i = deps.installs;
  const steps: Step[] = [
    ...certificateSteps(deps),
    {
      name: 'unit certificate',
      run: async ({ run }) => {
        const to = run.certificate?.id as string;
        const unit = await i.getUnit(run.imei);
        if (unit?.certificate_id === to) return;
        if (!(await i.swapCertificate(run.imei, run.old_certificate, to))) throw new Refused('Another new certificate was issued for this unit at the same time: use the newest one');
      },
    },
    {
      name: 'revoke',
      run: async (c) => {
        const keep = c.run.certificate?.id as string;
        const revoked = await revokeOthers(deps, c.run.imei, keep);
        // A certificate no longer on the thing is still deactivated.
        if (c.run.old_certificate && !revoked.includes(c.run.old_certificate) && c.run.old_certificate !== keep) await deps.provisioning.deactivateCertificate(c.run.old_certificate);
        revokedOf.set(c, revoked);
      },
    },
    {
      name: 'install log',
      run: ({ run }) => {
        const at = run.created_at;
        const revoked = run.old_certificate ? `; ${run.old_certificate} revoked (deactivated and detached)` : '';
        return i.putEntry({
          _id: run.request_id,
          created_at: at,
          updated_at: at,
          supply_number: run.supply_number ?? '',
          installer_name: run.installer_name ?? '',
          imei: run.imei,
          result: `Certificate reissued: ${run.certificate?.id ?? ''}${revoked}`,
          particle_id: unitThingName(run.imei),
        });
      },
    },
  ];
  const COMMIT = steps.findIndex((s) => s.name === 'unit certificate');
  const revokedOf = new WeakMap<RunContext, string[]>();
  const engine = runEngine(deps, steps);

  /** Past the commit point (the unit names the new certificate) a run is finished, else undone. */
  const committed = async (run: InstallRun) => run.step > COMMIT || (run.certificate !== undefined && (await i.getUnit(run.imei))?.certificate_id === run.certificate.id);
  const finish = async (c: RunContext) => {
    await engine.forward(c);
    await i.deleteRun(c.run);
  };
  const repair = async (run: InstallRun): Promise<'finished' | 'undone' | 'busy'> => {
    const c = await takeOver(deps, run);
    if (!c) return 'busy';
    if (await committed(c.run)) {
      await finish(c);
      return 'finished';
    }
    await engine.backward(c, c.run.error ?? 'stuck: undone by the reconciler');
    return 'undone';
  };

  return {
    repair,
    async reissue(q: { imei: string; certificateId: string | undefined; requestId: string; supplyNumber: string; installerName: string }): Promise<Reissued> {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const run = await i.getRun(q.imei, 'reissue');
        if (run) {
          if (leaseLive(deps, run)) throw new Refused('A new certificate is being issued for this unit: try again in a minute');
          await repair(run);
          continue;
        }
        const created = newRun(deps, {
          imei: q.imei,
          kind: 'reissue',
          request_id: q.requestId,
          supply_number: q.supplyNumber,
          installer_name: q.installerName,
          ...(q.certificateId ? { old_certificate: q.certificateId } : {}),
        });
        if (!(await i.createRun(created))) continue;
        const c: RunContext = { run: created };
        try {
          await finish(c);
        } catch (err) {
          if (c.run.step <= COMMIT && !(await committed(c.run))) {
            await engine.backward(c, String((err as Error).message ?? err)).catch((e: unknown) => deps.log.error('reissue: undo failed; the reconciler goes on', { imei: q.imei, err: e }));
            throw err;
          }
          // The unit has its new certificate: what is left is the reconciler's.
          deps.log.error('reissue: a step after the commit point failed; the reconciler finishes it', { imei: q.imei, err });
        }
        return { certificateId: c.run.certificate?.id as string, certificatePem: c.certificatePem as string, privateKey: c.privateKey as string, revoked: revokedOf.get(c) ?? [] };
      }
      throw new Refused('A new certificate is being issued for this unit: try again in a minute');
    },
  };
};
