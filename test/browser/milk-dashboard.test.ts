import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEMO_FARMS } from '../../local/seed/demo-data';
import type { Device } from '../../shared/entities/device';
import type { TelemetryMessageInput } from '../../shared/telemetry/device-message';
import { volumeFromLevel } from '../../shared/telemetry/reading';
import { browserTestFile, scrollToChart, shot, withShot } from '../support/browser';
import { card, CIP_START, DAY, devicesOf, fact, FARMER, farmOf, hoursAgo, levelAt, LITE, MILKING_START, MIN, OUTSIDE_VIEWPORT, POINTS, PRO, TIME_ZONE, volumeText, xRanges, milkDashboardFile, ofType } from '../support/milk-dashboard';

/**
 * In Chromium against the local stack: the milk dashboard (/dts/dashboard,
 * farmer §2.5, §2.17, §9) of every demo farm on readings published over MQTT, its 120 s refresh
 * (on the page's fake clock), data.csv for Pro, paging for Lite, the shared zoom, and the phone
 * layout at 375 px. The stack the tests start has no simulator, so beforeAll publishes a scripted
 * 6-hour trace for every demo vat and waits until the API answers with its newest reading.
 */
const env = browserTestFile('milk-dashboard');
const { run } = env;

const { sent, publish, untilLast, openDashboard } = milkDashboardFile(env);

describe.runIf(run)('the milk dashboard in Chromium: cards and the 120 s refresh', () => {
  it.each(DEMO_FARMS.map((f) => [f.fonterra_id, f.package, f._id] as const))(
    '%s (%s) shows a card per vat with its newest reading, and new telemetry within the 120 s refresh without a reload',
    async (_code, _pkg, farmId) => {
      const { context, page, calls } = await openDashboard(farmId, { clock: true });
      await withShot(page, `milk-cards-${farmId}`, async () => {
        const devices = devicesOf(farmId);
        expect(devices.length).toBe(farmOf(farmId).install_numVats);
        await card(page, 1).waitFor();
        expect(await page.locator('.vat-card').count()).toBe(devices.length);
        for (const d of devices) {
          const level = levelAt(d, POINTS - 1);
          const shown = card(page, d.vat_number);
          expect(await fact(shown, 'Volume')).toBe(volumeText(d, level));
          expect(await fact(shown, 'Agitator')).toBe('Running');
          // The activities the ingest found in the trace, as relative times.
          expect(await fact(shown, 'Last Milking Start')).toBe(hoursAgo(MILKING_START));
          expect(await fact(shown, 'Last CIP')).toBe(hoursAgo(CIP_START));
          expect([0, 1, 2, 3].map(hoursAgo)).toContain(await fact(shown, 'Last Collection'));
          // farmer row 215: the level graphic is the level on the 2000 mm scale (§9); the percent is the volume's.
          const meter = shown.getByRole('meter', { name: 'Milk level' });
          expect(await meter.getAttribute('aria-valuetext')).toBe(level > 2000 ? `${level} mm, over the 2000 mm scale` : `${level} mm`);
          const fill = /height:\s*([\d.]+)%/.exec((await meter.locator('.vat-level__fill').getAttribute('style')) ?? '')?.[1];
          expect(Number(fill)).toBeCloseTo(Math.min(100, (level * 100) / 2000), 5);
        }

        // New telemetry for every vat, then the page's clock moves past the 120 s refresh.
        await page.evaluate(() => Object.assign(globalThis, { beforeRefresh: true }));
        const fresh = new Date(Math.floor(Date.now() / 1000) * 1000 - 2000).toISOString();
        const freshLevel = (d: Device) => levelAt(d, POINTS - 1) - 250;
        for (const d of devices) {
          const message: TelemetryMessageInput = { published_at: fresh, milk_level: freshLevel(d), temp1: 9.2, agitator_status: 0, state_machine: 'storage' };
          // Kept with the trace: data.csv of the range holds it too.
          sent.get(d._id)?.push(message);
          await publish(d, message);
        }
        const token = await env.stack.signIn(FARMER[farmId] ?? '');
        await untilLast(farmId, token, () => fresh);
        const before = ofType(calls, 'FARMER_DASHBOARD_LAST').length;
        await scrollToChart(page, 'Vat 1 temperatures');
        const chartsBefore = ofType(calls, 'FARMER_DASHBOARD_LAST_ALL').length;
        // Not yet: 100 s on, the cards still show the old reading.
        await page.clock.fastForward('01:40');
        await page.waitForTimeout(300);
        expect(ofType(calls, 'FARMER_DASHBOARD_LAST').length).toBe(before);
        expect(await fact(card(page, 1), 'Volume')).toBe(volumeText(devices[0] as Device, levelAt(devices[0] as Device, POINTS - 1)));
        await page.clock.fastForward('00:25');
        for (const d of devices) {
          const shown = card(page, d.vat_number);
          await expect.poll(() => fact(shown, 'Volume')).toBe(volumeText(d, freshLevel(d)));
          expect(await fact(shown, 'Temperature')).toBe('9.2 °C');
          expect(await fact(shown, 'Agitator')).toBe('Stopped');
        }
        expect(ofType(calls, 'FARMER_DASHBOARD_LAST').length).toBe(before + 1);
        // The charts' live range (page 1, or the picker's days up to today) refreshes with them.
        await expect.poll(() => ofType(calls, 'FARMER_DASHBOARD_LAST_ALL').length).toBe(chartsBefore + 1);
        // The same page: no reload happened.
        expect(await page.evaluate(() => 'beforeRefresh' in globalThis)).toBe(true);
      });
      await context.close();
    },
  );
});

describe.runIf(run)('the milk dashboard in Chromium: data.csv and paging', () => {
  it("a Pro farm downloads a vat's data.csv: the spec's columns, only the readings with a volume, cooler data merged by time", async () => {
    const { context, page } = await openDashboard(PRO);
    await withShot(page, 'milk-csv', async () => {
      const d = devicesOf(PRO)[0] as Device;
      await scrollToChart(page, 'Vat 1 milk volume');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Vat 1 data' }).click()]);
      expect(download.suggestedFilename()).toBe('data.csv');
      const text = await readFile(await download.path(), 'utf8');
      const [header, ...rows] = text.split('\r\n').filter((line) => line !== '');
      expect(header).toBe('DateTime,Volume,Vat Temperature,Stirrer,milk_in,water_in');

      // The default range is the last 2 days: all the trace. Temperature-only messages have no volume and no row.
      const withVolume = (sent.get(d._id) ?? [])
        .filter((m) => m.milk_level !== undefined && m.milk_level !== null)
        .sort((a, b) => a.published_at.localeCompare(b.published_at));
      expect((sent.get(d._id) ?? []).length).toBeGreaterThan(withVolume.length);
      // §9: the farm's 'DD MMM YYYY HH:mm' (no seconds), volume to the nearest 10 L, temperatures to 1 decimal.
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: TIME_ZONE, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
      });
      const dateTime = (iso: string) => {
        const p = Object.fromEntries(local.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
        return `${p['day']} ${p['month']} ${p['year']} ${p['hour']}:${p['minute']}`;
      };
      const degrees = (t: number | null | undefined) => (t === null || t === undefined ? '' : (Math.round(t * 10) / 10).toFixed(1));
      expect(rows).toEqual(
        withVolume.map((m) =>
          [
            dateTime(m.published_at),
            Math.round(volumeFromLevel(m.milk_level ?? 0, d) / 10) * 10,
            degrees(m.temp1),
            m.agitator_status ?? '',
            degrees(m.cooler?.milk_in),
            degrees(m.cooler?.water_in),
          ].join(','),
        ),
      );
    });
    await context.close();
  });

  it("a Lite farm pages back 2 days with Previous and forward with Next, and gets 'No more data!' paging forward at page 1; Pro's picker says it for a future day", async () => {
    const { context, page, calls } = await openDashboard(LITE);
    await withShot(page, 'milk-paging', async () => {
      const charts = page.getByRole('region', { name: 'Vat 1 charts' });
      await scrollToChart(page, 'Vat 1 temperatures');
      const next = page.getByRole('button', { name: 'Next' });
      const previous = page.getByRole('button', { name: 'Previous' });
      expect(await next.getAttribute('aria-disabled')).toBe('true');
      expect(await page.getByLabel('From', { exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Download/ }).count()).toBe(0);
      const [first] = await xRanges(page, ['Vat 1 temperatures']);
      // Page 1 is the last 2 days up to now.
      expect((first?.max ?? 0) - (first?.min ?? 0)).toBe(2 * DAY);
      expect(Math.abs((first?.max ?? 0) - Date.now())).toBeLessThan(5 * MIN);
      expect(await charts.getByText('No readings in this range.').count()).toBe(0);

      await previous.click();
      await expect.poll(() => ofType(calls, 'FARMER_DASHBOARD_LAST_ALL').map((c) => c.get('page_index'))).toEqual(['1', '2']);
      await expect.poll(async () => (await xRanges(page, ['Vat 1 temperatures']))[0]?.max).toBeLessThan((first?.max ?? 0) - DAY);
      const [second] = await xRanges(page, ['Vat 1 temperatures']);
      expect((second?.max ?? 0) - (first?.max ?? 0)).toBeGreaterThan(-2 * DAY - MIN);
      expect((second?.max ?? 0) - (first?.max ?? 0)).toBeLessThan(-2 * DAY + MIN);
      // Page 2 (2 to 4 days ago) holds the readings of 3 days ago.
      expect(await charts.getByText('No readings in this range.').count()).toBe(0);
      expect(await next.getAttribute('aria-disabled')).toBe('false');

      await next.click();
      await expect.poll(() => next.getAttribute('aria-disabled')).toBe('true');
      expect(await previous.isEnabled()).toBe(true);
      // Farmer §2.5 shows Next disabled on page 1; pressed there it asks for nothing past the
      // present and says 'No more data!' (§8, Acceptance).
      const sentBefore = ofType(calls, 'FARMER_DASHBOARD_LAST_ALL').length;
      // force: Playwright will not press an aria-disabled button; a finger or a mouse does.
      await next.click({ force: true });
      await page.getByRole('alert').filter({ hasText: 'No more data!' }).waitFor();
      expect(ofType(calls, 'FARMER_DASHBOARD_LAST_ALL').length).toBe(sentBefore);
      await shot(page, 'lite-no-more-data');
    });
    await context.close();

    // The one time navigation of the dashboard that can pass the present is the Pro/Auto picker (§8).
    const pro = await openDashboard(PRO);
    await withShot(pro.page, 'no-more-data', async () => {
      await scrollToChart(pro.page, 'Vat 1 temperatures');
      const asked = ofType(pro.calls, 'FARMER_DASHBOARD_LAST_ALL').length;
      const tomorrow = new Date(Date.now() + DAY).toLocaleDateString('en-GB', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });
      await pro.page.getByLabel('To', { exact: true }).fill(tomorrow);
      await pro.page.getByRole('button', { name: 'View' }).click();
      await pro.page.getByRole('alert').filter({ hasText: 'No more data!' }).waitFor();
      expect(ofType(pro.calls, 'FARMER_DASHBOARD_LAST_ALL').length).toBe(asked);
    });
    await pro.context.close();
  });
});

describe.runIf(run)('the milk dashboard in Chromium: the shared zoom', () => {
  it('a plain mouse wheel over a chart scrolls the page; Ctrl + wheel zooms the temperature chart and the volume and stirrer charts of every vat to the same x range; Reset zoom zooms all out', async () => {
    const { context, page } = await openDashboard(PRO);
    await withShot(page, 'milk-zoom', async () => {
      const names = ['Vat 1 temperatures', 'Vat 1 milk volume', 'Vat 1 stirrer', 'Vat 2 temperatures', 'Vat 2 milk volume'];
      const temperature = page.getByRole('img', { name: 'Vat 1 temperatures' });
      await scrollToChart(page, 'Vat 2 milk volume');
      const [whole] = await xRanges(page, names);
      expect(whole).not.toBeNull();
      // The charts open on the picker's days: from local midnight of From (the last 2 days, §2.5).
      const [day, month, year] = ((await page.getByLabel('From', { exact: true }).inputValue()) ?? '').split('/').map(Number);
      expect(whole?.min).toBe(await page.evaluate(`new Date(${year}, ${(month ?? 0) - 1}, ${day}).getTime()`));
      expect(await xRanges(page, names)).toEqual(names.map(() => whole));

      await temperature.scrollIntoViewIfNeeded();
      const box = await temperature.boundingBox();
      if (!box) throw new Error('the temperature chart has no box');
      await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
      // Without Ctrl the wheel is the page's: it scrolls, and no chart zooms.
      await page.getByText(/^Zoom: Ctrl \+ scroll over a chart/).first().waitFor();
      const scrolled = await page.evaluate('window.scrollY').then(Number);
      await page.mouse.wheel(0, 200);
      await expect.poll(() => page.evaluate('window.scrollY').then(Number)).toBeGreaterThan(scrolled);
      await page.waitForTimeout(400);
      expect(await xRanges(page, names)).toEqual(names.map(() => whole));
      await temperature.scrollIntoViewIfNeeded();
      const box2 = await temperature.boundingBox();
      if (!box2) throw new Error('the temperature chart has no box');
      await page.mouse.move(box2.x + box2.width * 0.7, box2.y + box2.height / 2);
      await page.keyboard.down('Control');
      for (let i = 0; i < 5; i += 1) await page.mouse.wheel(0, -200);
      await page.keyboard.up('Control');

      // The zoom plugin reports a wheel zoom 250 ms after the last turn; then every chart follows.
      await expect.poll(async () => {
        const [t, ...others] = await xRanges(page, names);
        return t && t.max - t.min < (whole?.max ?? 0) - (whole?.min ?? 0) && others.every((o) => o?.min === t.min && o?.max === t.max);
      }).toBe(true);
      // On a busy machine the five turns may be reported one by one: wait until no report is left
      // (the range holds over more than the plugin's 250 ms), so none lands after Reset zoom.
      let before = JSON.stringify(await xRanges(page, names));
      await expect
        .poll(async () => {
          await page.waitForTimeout(400);
          const now = JSON.stringify(await xRanges(page, names));
          const held = now === before;
          before = now;
          return held;
        })
        .toBe(true);
      const [zoomed] = await xRanges(page, names);
      expect(zoomed?.min).toBeGreaterThan(whole?.min ?? 0);
      expect(zoomed?.max).toBeLessThanOrEqual(whole?.max ?? 0);

      await page.getByRole('button', { name: 'Reset zoom' }).click();
      await expect.poll(() => xRanges(page, names)).toEqual(names.map(() => whole));
      expect(await page.getByRole('button', { name: 'Reset zoom' }).count()).toBe(0);
    });
    await context.close();
  });
});

describe.runIf(run)('the milk dashboard on a phone (375 px)', () => {
  it.each([
    [PRO, 'cards, charts, the date picker and Download'],
    [LITE, 'cards, charts and paging'],
    ['farm-auto', 'four vats of cards and charts'],
  ])('%s: %s fit without horizontal scrolling; the storage history is neither asked for nor shown', async (farmId) => {
    const { context, page, calls } = await openDashboard(farmId, { width: 375, phone: true });
    await withShot(page, `milk-phone-${farmId}`, async () => {
      const last = devicesOf(farmId).at(-1)?.vat_number ?? 1;
      await scrollToChart(page, `Vat ${last} stirrer`);
      await shot(page, `milk-phone-${farmId}`);
      const widths = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return { scroll: root.scrollWidth, client: root.clientWidth };
      });
      expect(widths.scroll).toBeLessThanOrEqual(375);
      // Nor is anything of the screen cut off at the edge by a container that hides its overflow.
      expect(await page.evaluate(OUTSIDE_VIEWPORT)).toEqual([]);
      expect(ofType(calls, 'FARMER_STORAGE_HISTORY')).toHaveLength(0);
      expect(await page.getByRole('region', { name: 'Milk storage history' }).count()).toBe(0);

      // A finger swiping up over a chart scrolls the page (the charts fill the screen's width);
      // two fingers spreading on a chart zoom every chart (§2.17).
      const touch = await context.newCDPSession(page);
      const volume = page.getByRole('img', { name: 'Vat 1 milk volume' });
      await volume.scrollIntoViewIfNeeded();
      const box = await volume.boundingBox();
      if (!box) throw new Error('the volume chart has no box');
      const scrolledFrom = Number(await page.evaluate('window.scrollY'));
      const x = Math.round(box.x + box.width / 2);
      const y = Math.round(box.y + box.height * 0.8);
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      for (let i = 1; i <= 10; i += 1) await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - i * 20 }] });
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect.poll(async () => Number(await page.evaluate('window.scrollY')) - scrolledFrom).toBeGreaterThan(150);

      const temperature = page.getByRole('img', { name: 'Vat 1 temperatures' });
      await temperature.scrollIntoViewIfNeeded();
      const t = await temperature.boundingBox();
      if (!t) throw new Error('the temperature chart has no box');
      const cx = Math.round(t.x + t.width / 2);
      const cy = Math.round(t.y + t.height / 2);
      const fingers = (spread: number) => [
        { x: cx - spread, y: cy, id: 1 },
        { x: cx + spread, y: cy, id: 2 },
      ];
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(20) });
      for (let i = 1; i <= 10; i += 1) await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(20 + i * 10) });
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
      const [zoomed, volumeRange] = await xRanges(page, ['Vat 1 temperatures', 'Vat 1 milk volume']);
      expect(volumeRange).toEqual(zoomed);
      expect(await page.evaluate(OUTSIDE_VIEWPORT)).toEqual([]);
    });
    await context.close();
  });

  it("Pro's picker with a problem still fits on a phone", async () => {
    const { context, page } = await openDashboard(PRO, { width: 375, phone: true });
    await scrollToChart(page, 'Vat 2 stirrer');
    await page.getByLabel('From', { exact: true }).fill('31/02/2026');
    await page.getByRole('button', { name: 'View' }).click();
    await page.getByRole('alert').filter({ hasText: 'From must be a date as DD/MM/YYYY.' }).waitFor();
    expect(await page.evaluate(OUTSIDE_VIEWPORT)).toEqual([]);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('at 1280 px the storage history card is there, with a chart per vat', async () => {
    const { context, page, calls } = await openDashboard(PRO);
    const history = page.getByRole('region', { name: 'Milk storage history' });
    await scrollToChart(page, 'Vat 2 storage volume');
    await history.getByRole('img', { name: 'Vat 2 storage volume' }).waitFor();
    expect(ofType(calls, 'FARMER_STORAGE_HISTORY').length).toBeGreaterThan(0);
    await shot(page, 'milk-desktop-farm-pro');
    await context.close();
  });
});
