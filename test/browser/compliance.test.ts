import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../local/simulator/simulator';
import { browserTestFile, farmContext, signIn, withShot } from '../support/browser';
import { simulateDemoFarm } from '../support/demo-farm-readings';

/**
 * The compliance record's PDF in Chromium, for a farm named in te reo: the page builds
 * the PDF in the browser under the app's CSP, loading the Unicode font only for such a record,
 * and the file it saves keeps the macrons (pdftotext). The farm's name is set on the record's
 * answer on its way to the page (the demo farms' names are plain).
 */
const env = browserTestFile('compliance');
const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;
const NAME = 'Ōtāhuhu Dairy — Māui’s vats';

describe.skipIf(!env.run || !hasPoppler)('the compliance record as a PDF, in Chromium', () => {
  // 12 hours of the Auto farm's readings: a milking per vat in the season, so the record has rows.
  let sim: SimulatorHandle | undefined;
  beforeAll(async () => {
    sim = await simulateDemoFarm(env.stack.facts.mqtt, 'farm-auto', 12);
  }, 120_000);
  afterAll(async () => sim?.stop());

  it('saves a PDF whose farm name keeps its macrons, with no CSP refusal', async () => {
    const context = await farmContext(env.browser, env.web, 'farm-auto', { acceptDownloads: true });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await page.route('**/api/farmer/activity', async (route) => {
      if (!(route.request().postData() ?? '').includes('type=FARMER_COMPLIANCE_RECORD')) return route.fallback();
      const response = await route.fetch();
      const record = (await response.json()) as { farm: { name: string } };
      await route.fulfill({ response, json: { ...record, farm: { ...record.farm, name: NAME } } });
    });
    await page.goto(`${env.web}/dts/compliance`);
    await signIn(page, 'farmer@vatman.local');
    await page.waitForURL(`${env.web}/dts/compliance`);
    await withShot(page, 'compliance-pdf', async () => {
      const pdfButton = page.getByRole('button', { name: 'Download PDF' });
      await expect.poll(() => pdfButton.isEnabled(), { timeout: 30_000 }).toBe(true);
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), pdfButton.click()]);
      const file = join(mkdtempSync(join(tmpdir(), 'vatman-compliance-browser-')), download.suggestedFilename());
      await download.saveAs(file);
      expect(file).toMatch(/\.pdf$/);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain(`Farm: ${NAME}`);
      expect(text).toContain('Supply number:');
      // Each vat's table has its milkings, each with a verdict; no vat's table is empty.
      expect(text).not.toContain('No milkings in this period.');
      expect(text).toMatch(/Compliant|Failed R\d|Not decided/);
      expect(refused).toEqual([]);
    });
    await context.close();
  }, 180_000);
});
