import { beforeEach, describe, expect, it } from 'vitest';
import type { StoredNotification } from '../ports/alerts';
import { alert, channelOf, published, resetSns, topicOf, user, world } from '../../test/support/notifier-world';

beforeEach(resetSns);

describe('escalation of an unread critical alert', () => {
  const farmer = user({ _id: 'u1', email: 'farmer@vatman.local' });
  const member = user({ _id: 'o1', email: 'member@vatman.local', phone: '+64211234599' });
  const quiet = user({ _id: 'o2', email: 'quiet@vatman.local', phone: '+64211234598' });
  const texts = () => published().filter((p) => channelOf(p) === 'sms');
  const setup = (o: { status?: () => 1 | 2 | 3; smsUsed?: number; type?: StoredNotification['type'] } = {}) =>
    world([farmer], {}, o.smsUsed ?? 0, {
      settings: { u1: { minutes: 15, organization: false }, o1: { minutes: 10, organization: true }, o2: { minutes: 15, organization: false } },
      orgUsers: [member, quiet],
      stored: () => alert({ status: o.status?.() ?? 1, ...(o.type ? { type: o.type } : {}) }),
    });

  it('texts it again to the farm user after their N, and to the opted-in organization member after 2N of theirs; nothing twice', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    expect(texts()).toHaveLength(1);
    // Created 03:30:02; the clock is 03:31. Step 1 due 03:45:02, step 2 (member's N 10) 03:50:02.
    w.advance(13 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    w.advance(2 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)).toMatchObject({ TopicArn: topicOf('u1'), Message: 'Vat-Man Totara Downs Vat 1: Still unread: Milk over 6C (8.5C, 4320 L) at 16:30 Sun 22 Nov.' });
    w.advance(5 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('o1'));
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    // The farmer's own email, and the quiet member (not opted in) has nothing.
    expect(published().map((p) => p.TopicArn)).not.toContain(topicOf('o2'));
    expect(w.sms()).toBe(3);
  });

  it('a read alert is not escalated: the steps are settled skipped, no text counted', async () => {
    let status: 1 | 2 = 1;
    const w = setup({ status: () => status });
    await w.notifier.deliver(alert());
    // A step's text is counted when it goes, not when planned.
    expect(w.sms()).toBe(1);
    status = 2;
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect(texts()).toHaveLength(1);
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state, d.last_error])).toEqual([
      ['u1', 1, 'skipped', 'the alert was read before the escalation was due'],
      ['o1', 2, 'skipped', 'the alert was read before the escalation was due'],
    ]);
    expect(w.sms()).toBe(1);
  });

  it('a step whose person left the organization, or turned escalation off, since the alert came is skipped', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    expect(w.sms()).toBe(1);
    // After planning: the farmer turns escalation off, the member leaves the organization.
    w.setEscalation('u1', { minutes: null, organization: false });
    w.removeOrgUser('o1');
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect(texts()).toHaveLength(1);
    const error = 'the user no longer has this escalation (left the farm or organization, or turned it off)';
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state, d.last_error])).toEqual([
      ['u1', 1, 'skipped', error],
      ['o1', 2, 'skipped', error],
    ]);
    expect(w.sms()).toBe(1);
  });

  it('steps are planned again when one comes due: someone who joined or opted in since gets theirs, due at once if its time has passed', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    // After planning: the quiet member opts in (step 2 at 2 × 15 = 04:00:02), a new farm user joins (N 5: step 1 due 03:35:02, already past).
    w.setEscalation('o2', { minutes: 15, organization: true });
    const newcomer = user({ _id: 'u2', email: 'newcomer@vatman.local', phone: '+64211234597' });
    w.addFarmUser(newcomer);
    w.setEscalation('u2', { minutes: 5, organization: false });
    w.advance(14 * 60_000 + 2_000);
    // 03:45:02: the farmer's step 1 is due; planning again adds the newcomer's (past due) and the member's.
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().map((p) => p.TopicArn)).toEqual([topicOf('u1'), topicOf('u1')]);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('u2'));
    w.advance(15 * 60_000);
    // 04:00:02: o1's step 2 (03:50:02) and o2's (04:00:02).
    expect(await w.notifier.retryPending()).toBe(2);
    expect(texts().slice(-2).map((p) => p.TopicArn).sort()).toEqual([topicOf('o1'), topicOf('o2')]);
    w.advance(60 * 60_000);
    expect(await w.notifier.retryPending()).toBe(0);
    expect([...w.deliveries.values()].filter((d) => d.escalation).map((d) => [d.user_id, d.escalation, d.state])).toEqual([
      ['u1', 1, 'sent'],
      ['o1', 2, 'sent'],
      ['u2', 1, 'sent'],
      ['o2', 2, 'sent'],
    ]);
  });

  it('a step whose person lengthened their minutes since waits for the new time, and the detail shows it', async () => {
    const w = setup();
    await w.notifier.deliver(alert());
    w.setEscalation('u1', { minutes: 40, organization: false });
    w.advance(14 * 60_000 + 2_000);
    expect(await w.notifier.retryPending()).toBe(0);
    const step = () => [...w.deliveries.values()].find((d) => d.user_id === 'u1' && d.escalation === 1);
    expect(step()).toMatchObject({ state: 'pending', due_at: '2026-11-22T04:10:02.000Z', escalation_due: '2026-11-22T04:10:02.000Z' });
    // Nobody else's step moved: the member's step 2 (N 10) goes at 03:50:02.
    w.advance(5 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('o1'));
    w.advance(20 * 60_000);
    expect(await w.notifier.retryPending()).toBe(1);
    expect(texts().at(-1)?.TopicArn).toBe(topicOf('u1'));
    expect(step()?.state).toBe('sent');
    expect(w.sms()).toBe(3);
  });

  it('with the text allowance used up, the step goes by email saying why', async () => {
    const w = setup({ smsUsed: 119 });
    await w.notifier.deliver(alert());
    w.advance(16 * 60_000);
    await w.notifier.retryPending();
    const steps = [...w.deliveries.values()].filter((d) => d.escalation === 1);
    expect(steps.map((d) => [d.channel, d.state, d.last_error])).toEqual([
      ['sms', 'skipped', "the farm's 120 texts of this month are used up"],
      ['email', 'sent', undefined],
    ]);
    expect(w.sms()).toBe(120);
    expect(published().at(-1)?.Subject).toBe('Vat-Man alert: Totara Downs Vat 1 - Still unread: Milk over 6C');
  });

  it('an alert that is not critical (104 too cold) has no steps', async () => {
    const w = setup({ type: 104 });
    await w.notifier.deliver(alert({ type: 104 }));
    expect([...w.deliveries.values()].filter((d) => d.escalation)).toEqual([]);
  });
});
