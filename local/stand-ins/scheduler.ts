/**
 * EventBridge schedule stand-in: invokes each target at its rate with a scheduled event of the
 * same shape. A run still going when the next is due is not overlapped (EventBridge would start
 * another; the handlers are written to tolerate both).
 */
interface ScheduleTarget {
  readonly name: string;
  readonly everyMs: number;
  readonly invoke: (event: ScheduledEvent) => Promise<unknown>;
}

interface ScheduledEvent {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': 'Scheduled Event';
  readonly source: 'aws.events';
  readonly time: string;
  readonly resources: readonly string[];
  readonly detail: Record<string, never>;
}

export const startScheduler = (
  targets: readonly ScheduleTarget[],
  onError: (name: string, err: unknown) => void,
  now: () => Date = () => new Date(),
) => {
  const timers = targets.map((t) => {
    let running = false;
    return setInterval(() => {
      if (running) return;
      running = true;
      const event: ScheduledEvent = {
        version: '0',
        id: crypto.randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        time: now().toISOString(),
        resources: [`local:schedule/${t.name}`],
        detail: {},
      };
      t.invoke(event)
        .catch((err: unknown) => onError(t.name, err))
        .finally(() => {
          running = false;
        });
    }, t.everyMs);
  });
  return { stop: () => timers.forEach(clearInterval) };
};
