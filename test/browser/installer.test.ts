import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { dynamoReadingsRepository } from '../../lambdas/adapters/dynamodb/readings-repository';
import { unitCheckCommandSchema, unitCheckTopic, type UnitStatus } from '../../shared/installer/unit-check';
import { replyTopic, unitTelemetryTopic } from '../../shared/telemetry/device-message';
import { browserTestFile, openAs as openPage, shot, withShot } from '../support/browser';
import { until } from '../support/until';

/**
 * The installer tools in Chromium (operator §2, §4, §5, §8) as the demo installer: a new
 * install for a fresh supply number with two vats (one from the height table, one entered by
 * hand), its certificate files downloaded from the result dialog, a reading published over
 * mutual TLS with them (`mosquitto_pub --cert --key --cafile`, as an installer loading the files
 * onto a unit would), Check Install asking the unit, the install log showing the new install and
 * the checks, and the farm's devices in the admin device list.
 *
 * The freshly installed unit has no simulator behind it, so the test answers Check Install's
 * commands as the unit itself: an MQTT client connected over mutual TLS with the downloaded
 * certificate and key and the unit's client id, subscribed to its own check topic and replying on
 * its own reply topic, which is exactly what the device policy lets the unit do.
 */
const env = browserTestFile('installer');
const IMEI = '352656100008801';
const SUPPLY = '88001';

const openAs = (email: string, path: string): Promise<Page> => openPage(env.browser, env.web, email, path, { acceptDownloads: true });

/** mosquitto_pub from Debian's mosquitto-clients (.ci/run installs it); required where the browser tests must run. */
const MOSQUITTO_PUB = '/usr/bin/mosquitto_pub';
const havePub = async (): Promise<boolean> => {
  try {
    await promisify(execFile)(MOSQUITTO_PUB, ['--help']).catch((err: { code?: unknown }) => {
      // --help exits 1 once it has printed the usage: the program is there.
      if (err.code === 'ENOENT') throw err;
    });
    return true;
  } catch {
    if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but no ${MOSQUITTO_PUB} (apt-get install mosquitto-clients)`);
    console.warn(`No ${MOSQUITTO_PUB}: the installer test publishes with the mqtt package instead (apt-get install mosquitto-clients).`);
    return false;
  }
};

const downloadText = async (page: Page, link: string): Promise<string> => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link, exact: true }).click()]);
  return readFile((await download.path()) ?? '', 'utf8');
};

describe.skipIf(!env.run)('new install, install log and device list', () => {
  it('installs two vats for a fresh supply number, downloads the certificate once, logs it, and the devices appear', async () => {
    const page = await openAs('installer@vatman.local', '/dts/installer/new');
    let downloaded = { certificate: '', key: '', ca: '', endpoint: '' };
    await withShot(page, 'installer-new', async () => {
      const panel = page.getByRole('tabpanel');
      // §5 defaults.
      await expect(panel.getByLabel('Dairy Supplier').inputValue()).resolves.toBe('FON');
      await expect(panel.getByLabel('Product Variant').inputValue()).resolves.toBe('Vat-Man Lite');
      await expect(panel.getByLabel('Number of Vats').inputValue()).resolves.toBe('1');
      await expect(panel.getByLabel('Number of Displays').inputValue()).resolves.toBe('0');
      await panel.getByLabel('IMEI').fill(IMEI);
      await panel.getByLabel('Dairy Supplier').selectOption('OCD');
      await panel.getByLabel('Supply Number').fill(SUPPLY);
      await panel.getByLabel('Product Variant').selectOption('Vat-Man Pro');
      await panel.getByLabel('Number of Vats').selectOption('2');
      await page.getByRole('tab', { name: 'Vat 1' }).click();
      // Vat 1 from the table: the Sidewall row of 18000 L gives 2750 mm.
      await panel.getByLabel('Diameter').selectOption('2875');
      await panel.getByLabel('Capacity').selectOption('18000 Sidewall');
      await expect(panel.getByLabel('Height').inputValue()).resolves.toBe('2750');
      await panel.getByLabel('Radar Serial').fill('R-1');
      await page.getByRole('tab', { name: 'Vat 2' }).click();
      // Nothing is sent while vat 2 is empty: its required fields say so.
      await page.getByRole('button', { name: 'Submit New Install' }).click();
      await expect(panel.getByText('Required Field').count()).resolves.toBe(4);
      await panel.getByRole('switch', { name: 'Manual Vat Input' }).check();
      await panel.getByLabel('Diameter').fill('2500');
      await panel.getByLabel('Capacity').fill('10000');
      await panel.getByLabel('Height').fill('2100');
      await panel.getByLabel("Radar O'Clock").selectOption('10');
      await panel.getByLabel('Radar Serial').fill('R-2');
      await page.getByRole('button', { name: 'Submit New Install' }).click();
      const dialog = page.getByRole('dialog', { name: 'Vat-Man Install Submitted Successfully' });
      await dialog.waitFor({ timeout: 20_000 });
      expect(await dialog.textContent()).toContain(`Vat-Man installed for ${SUPPLY}: 2 vats`);
      const certificate = await downloadText(page, 'Certificate');
      const key = await downloadText(page, 'Private key');
      const ca = await downloadText(page, 'CA certificate');
      const endpoint = (await dialog.locator('code').nth(1).textContent()) ?? '';
      downloaded = { certificate, key, ca, endpoint };
      // A real certificate from the CA, and the key that belongs to it.
      const x509 = new X509Certificate(certificate);
      expect(x509.verify(new X509Certificate(ca).publicKey)).toBe(true);
      expect(createPublicKey(createPrivateKey(key)).export({ type: 'spki', format: 'pem' })).toBe(x509.publicKey.export({ type: 'spki', format: 'pem' }));
      await dialog.getByRole('button', { name: 'Close' }).click();
      // §4: not the dairy company's: on to Check Install.
      await page.waitForURL((u) => u.pathname === '/dts/installer/check');
    });
    await shot(page, 'installer-new');

    await withShot(page, 'installer-check', async () => {
      // The new unit is not connected yet: it answers nothing, the connection is down, and the check stops there (§4).
      await page.getByLabel('Supply Number').fill(SUPPLY);
      await page.getByRole('button', { name: 'Check' }).click();
      await page.getByRole('list', { name: 'Check results' }).getByText('Connection is down').waitFor({ timeout: 20_000 });
    });

    // The downloaded files on the unit: a reading over mutual TLS to the endpoint of the download.
    const dir = mkdtempSync(join(tmpdir(), 'vatman-unit-'));
    const files = { cert: join(dir, 'certificate.pem'), key: join(dir, 'private.key'), ca: join(dir, 'ca.pem') };
    writeFileSync(files.cert, downloaded.certificate);
    writeFileSync(files.key, downloaded.key, { mode: 0o600 });
    writeFileSync(files.ca, downloaded.ca);
    const port = new URL(env.stack.facts.mqttTls).port;
    const thing = `unit-${IMEI}`;
    const at = new Date().toISOString();
    const reading = JSON.stringify({ published_at: at, radar_distance: 1500, temp1: 4.1, battery: { status: '0x0B' }, signal: { strength: 67, quality: 81, disconnects: 0 } });
    if (await havePub()) {
      await promisify(execFile)(MOSQUITTO_PUB, ['-h', downloaded.endpoint, '-p', port, '--cafile', files.ca, '--cert', files.cert, '--key', files.key, '-i', thing, '-q', '1', '-t', unitTelemetryTopic(thing, 1), '-m', reading], { timeout: 15_000 });
    } else {
      const c = await mqtt.connectAsync(`mqtts://${downloaded.endpoint}:${port}`, { ca: downloaded.ca, cert: downloaded.certificate, key: downloaded.key, clientId: thing, reconnectPeriod: 0 });
      await c.publishAsync(unitTelemetryTopic(thing, 1), reading, { qos: 1 });
      await c.endAsync();
    }
    // The reading is the new farm's vat 1's.
    await until(async () => ((await dynamoReadingsRepository(createDocumentClient(), env.stack.facts.dynamodb.readingsTable).getRaw(`dev-${SUPPLY}-1`, at)) ? true : undefined), { timeoutMs: 15_000 });

    // The unit answers Check Install (see the file's comment): over mutual TLS, its own topics only.
    const unit = await mqtt.connectAsync(`mqtts://${downloaded.endpoint}:${port}`, { ca: downloaded.ca, cert: downloaded.certificate, key: downloaded.key, clientId: thing, reconnectPeriod: 0 });
    const status: UnitStatus = {
      network: 'LTE',
      signal: { strength: 67, quality: 81 },
      disconnects: 0,
      power: { source: 'VIN', battery: { state: 'charged' } },
      sensorBoards: [{ vat: 1, probe: true, radar: true }, { vat: 2, probe: true, radar: true }],
    };
    const asked: string[] = [];
    unit.on('message', (_topic, payload) => {
      const command = unitCheckCommandSchema.parse(JSON.parse(payload.toString('utf8')));
      asked.push(command.check);
      void unit.publishAsync(replyTopic(thing), JSON.stringify({ request_id: command.request_id, return_value: status }), { qos: 1 });
    });
    await unit.subscribeAsync(unitCheckTopic(thing), { qos: 1 });
    await withShot(page, 'installer-check', async () => {
      await page.getByRole('button', { name: 'Check' }).click();
      const results = page.getByRole('list', { name: 'Check results' });
      await results.getByText('Connection is up').waitFor({ timeout: 20_000 });
      for (const line of ['Network strength: okay (67%)', 'Signal quality: okay (81%)', 'Mains power: okay (VIN)', 'Battery: okay (charged)', 'Sensor boards: ok: 2 vats']) await results.getByText(line).waitFor({ timeout: 20_000 });
    });
    await shot(page, 'installer-check');
    await unit.endAsync();
    expect(asked.sort()).toEqual(['diagnostics', 'online', 'sensorboards']);

    // The local stack sets no post-install form: the Help page says so rather than linking nowhere.
    await page.goto(`${env.web}/dts/installer/help`);
    await page.getByText("The post-install form's address is not configured", { exact: false }).waitFor();

    await page.goto(`${env.web}/dts/installer/log`);
    await withShot(page, 'installer-log', async () => {
      await page.getByLabel('Supply Number').fill(SUPPLY);
      await page.getByLabel('Log Type').selectOption('New Installs');
      await page.getByRole('button', { name: 'Search' }).click();
      const entries = page.getByRole('list', { name: 'Install log entries' }).getByRole('listitem');
      await page.getByText('1 entry, page 1 of 1').waitFor();
      await entries.first().getByText(`${SUPPLY} · New Install · Vat-Man installed for ${SUPPLY}: 2 vats`).click();
      const details = await entries.first().textContent();
      expect(details).toContain(IMEI);
      expect(details).toContain('Tom Fraser');
      expect(details).toContain(`unit-${IMEI}`);
      // All: the new install and the checks, newest first (two online checks, diagnostics, sensor boards).
      await page.getByLabel('Log Type').selectOption('All');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByText('5 entries, page 1 of 1').waitFor();
      const list = page.getByRole('list', { name: 'Install log entries' });
      await list.getByText(`${SUPPLY} · Check Online · Connection is up`).waitFor();
      await list.getByText(`${SUPPLY} · Check Diagnostics · Network LTE, signal 67% / 81%, 0 disconnects, power VIN, battery charged`).waitFor();
      await list.getByText(`${SUPPLY} · Check Sensor Boards · ok: 2 vats`).waitFor();
      await list.getByText(`${SUPPLY} · New Install · Vat-Man installed for ${SUPPLY}: 2 vats`).waitFor();
    });
    await shot(page, 'installer-log');
    await page.context().close();

    const admin = await openAs('admin@vatman.local', '/dts/devices');
    await withShot(admin, 'installer-devices', async () => {
      const table = admin.getByRole('table');
      await table.waitFor();
      for (const name of [`vm-${SUPPLY}-1`, `vm-${SUPPLY}-2`]) {
        await table.getByRole('link', { name, exact: true }).waitFor();
        // The row names the new farm.
        expect(await table.getByRole('row').filter({ has: admin.getByRole('link', { name, exact: true }) }).textContent()).toContain(SUPPLY);
      }
    });
    await admin.context().close();
  });
});

describe.skipIf(!env.run)('installer vat settings (config)', () => {
  it('searches, says what it did not find, and saves a vat; an added vat needs its required fields', async () => {
    const page = await openAs('installer@vatman.local', '/dts/installer/config');
    await withShot(page, 'installer-config', async () => {
      const panel = page.getByRole('tabpanel');
      await panel.getByRole('button', { name: 'Search' }).click();
      await panel.getByText('Please fill ONE of these fields').waitFor();
      await panel.getByLabel('Supply Number').fill('NOSUCH9');
      await panel.getByRole('button', { name: 'Search' }).click();
      const notFound = page.getByRole('dialog', { name: 'Farm/Particle Not Found' });
      await notFound.getByText('Please try again').waitFor();
      await notFound.getByRole('button', { name: 'Close' }).click();
      await panel.getByLabel('Supply Number').fill('31245');
      await panel.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('tab', { name: 'Vat 4' }).waitFor();
      // Searched by supply number: the IMEI is filled and read-only (§4).
      await expect(panel.getByLabel('IMEI').inputValue()).resolves.toBe('352656100000029');
      await expect(panel.getByLabel('IMEI').getAttribute('readonly')).resolves.not.toBeNull();
      await page.getByRole('tab', { name: 'Vat 2' }).click();
      await expect(panel.getByLabel('Height', { exact: true }).inputValue()).resolves.toBe('2719');
      // A seeded vat has its wedge height and no O'Clock position: it opens with manual radar on.
      await expect(panel.getByLabel('Wedge Height').inputValue()).resolves.toBe('60');
      await panel.getByRole('switch', { name: 'Manual Radar Input' }).uncheck();
      await panel.getByLabel('Radar Serial').fill('RS-NEW-2');
      await panel.getByLabel("Radar O'Clock").fill('8');
      await panel.getByRole('button', { name: 'Submit Vat 2 Changes' }).click();
      const saved = page.getByRole('dialog', { name: 'Vat Update Success' });
      await saved.getByText('Vat 2 updated').waitFor();
      await saved.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('tab', { name: 'Vat 3' }).click();
      await panel.getByRole('button', { name: 'Add Vat 3' }).click();
      await panel.getByRole('button', { name: 'Submit Vat 3 Changes' }).click();
      await expect(panel.getByText('Required Field').count()).resolves.toBe(5);
      await panel.getByRole('button', { name: 'Remove Vat 3' }).click();
      await panel.getByRole('button', { name: 'Add Vat 3' }).waitFor();
    });
    await shot(page, 'installer-config');
    await page.context().close();
  });
});

describe.skipIf(!env.run)('a new certificate from the result dialog (REISSUE_CERTIFICATE)', () => {
  it('gives a working certificate: a reading publishes over mutual TLS with it, and the old one is refused', async () => {
    const imei = '352656100008802';
    const supply = '88002';
    const page = await openAs('installer@vatman.local', '/dts/installer/new');
    const port = new URL(env.stack.facts.mqttTls).port;
    const thing = `unit-${imei}`;
    const filesOf = async () => ({ cert: await downloadText(page, 'Certificate'), key: await downloadText(page, 'Private key'), ca: await downloadText(page, 'CA certificate') });
    const connect = (f: { cert: string; key: string; ca: string }) => mqtt.connectAsync(`mqtts://localhost:${port}`, { ca: f.ca, cert: f.cert, key: f.key, clientId: thing, reconnectPeriod: 0, connectTimeout: 5_000 });
    await withShot(page, 'installer-reissue', async () => {
      const panel = page.getByRole('tabpanel');
      await panel.getByLabel('IMEI').fill(imei);
      await panel.getByLabel('Dairy Supplier').selectOption('OTH');
      await panel.getByLabel('Supply Number').fill(supply);
      await page.getByRole('tab', { name: 'Vat 1' }).click();
      await panel.getByLabel('Diameter').selectOption('2337');
      await panel.getByLabel('Capacity').selectOption('9100');
      await panel.getByLabel('Radar Serial').fill('R-88002');
      await page.getByRole('button', { name: 'Submit New Install' }).click();
      const dialog = page.getByRole('dialog', { name: 'Vat-Man Install Submitted Successfully' });
      await dialog.waitFor({ timeout: 20_000 });
      const first = await filesOf();
      const firstId = (await dialog.locator('code').nth(2).textContent()) ?? '';
      // The answer's key was lost (say): a new one from the same dialog, after the warning.
      await dialog.getByRole('button', { name: 'Issue a new certificate' }).click();
      await dialog.getByRole('button', { name: 'Issue it' }).click();
      await dialog.getByRole('status').getByText(`revoked ${firstId}`, { exact: false }).waitFor({ timeout: 20_000 });
      const secondId = (await dialog.locator('code').nth(2).textContent()) ?? '';
      expect(secondId).not.toBe(firstId);
      const second = await filesOf();
      expect(second.cert).not.toBe(first.cert);
      expect(new X509Certificate(second.cert).verify(new X509Certificate(second.ca).publicKey)).toBe(true);

      // The new certificate works: a reading over mutual TLS reaches the new farm's vat.
      const unit = await connect(second);
      const at = new Date().toISOString();
      await unit.publishAsync(unitTelemetryTopic(thing, 1), JSON.stringify({ published_at: at, radar_distance: 1500, temp1: 4.1 }), { qos: 1 });
      await unit.endAsync();
      await until(async () => ((await dynamoReadingsRepository(createDocumentClient(), env.stack.facts.dynamodb.readingsTable).getRaw(`dev-${supply}-1`, at)) ? true : undefined), { timeoutMs: 15_000 });
      // The old one is refused at the broker; IoT shows it inactive and the thing with exactly one active certificate.
      await expect(connect(first)).rejects.toThrow();
      const onThing = env.stack.iot.certificatesOfThing(thing);
      expect(onThing.map((c) => [c.certificateId, c.status])).toEqual([[secondId, 'ACTIVE']]);
      expect(env.stack.iot.certificates().find((c) => c.certificateId === firstId)).toMatchObject({ status: 'INACTIVE', policies: [] });
    });
    await shot(page, 'installer-reissue');
    await page.context().close();
  });
});
