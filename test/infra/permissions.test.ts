import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PORT_GRANTS } from '../../cdk/lib/port-grants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthVatMan, type Synthesized } from './synth';

/**
 * What each function of the stack may do, read from the synthesized template (issue "A stack that
 * deploys and is locked down"). The table in docs/permissions.md is this test's output: it fails
 * when the template and the page differ (run with UPDATE_DOCS=1 to rewrite the page), and it fails
 * on any wildcard in an action or a resource that is not listed below with its reason.
 */

type Json = unknown;
interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, Json>;
}

/** Wildcards that are there on purpose: function, action, resource pattern, and why. */
const KNOWN_WILDCARDS: readonly { fn: RegExp; action: RegExp; resource: RegExp; why: string }[] = [
  { fn: /./, action: /^dynamodb:/, resource: /\/index\/\*$/, why: "queries on a table's own secondary indexes" },
  { fn: /^(ApiFarmerSetting|ApiInstaller)$/, action: /^iot:Publish$/, resource: /:topic\/dts\/\*\/cmd\/settings$/, why: 'controller settings (and calibration) to the vat the farmer or operator picks; the device policy lets each unit read only its own' },
  { fn: /^(TelemetryIngest|AlertEngineSweep|AlertEnginePostConfirmationTrigger)$/, action: /^sns:/, resource: /-alert-email-\*$/, why: "each user's alert topic, named by the stack's prefix and the user's id" },
  {
    fn: /^ApiSettingProfile$/,
    action: /^sns:(CreateTopic|Subscribe|Unsubscribe|GetSubscriptionAttributes|SetSubscriptionAttributes)$/,
    resource: /-alert-email-\*$/,
    why: "the caller's own alert topic: its email subscription's confirmation, read and re-sent (no Publish)",
  },
  {
    fn: /^ApiUser$/,
    action: /^sns:(CreateTopic|Subscribe|Unsubscribe|GetSubscriptionAttributes|SetSubscriptionAttributes)$/,
    resource: /-alert-email-\*$/,
    why: "the new user's alert topic and subscription, the post-confirmation trigger's work, which Cognito skips for an account the admin API creates (no Publish)",
  },
  { fn: /^ApiAdminDevice$/, action: /^iot:ListThings$/, resource: /^\*$/, why: 'iot:ListThings has no resource-level permission (Load name from Particle)' },
  { fn: /^(Api[A-Za-z]+|TelemetryIngest)$/, action: /^xray:(PutTraceSegments|PutTelemetryRecords)$/, resource: /^\*$/, why: 'X-Ray tracing (Active on the API functions and the ingest, decision 080): its write actions have no resource-level permission' },
  {
    fn: /^(ApiInstaller|InstallReconcilerJob)$/,
    action: /^iot:(CreateKeysAndCertificate|DescribeEndpoint)$/,
    resource: /^\*$/,
    why: 'no resource-level permission (IAM takes only "*" for these): a new install makes its unit one certificate and reads the account data endpoint the unit connects to',
  },
  { fn: /^ApiInstaller$/, action: /^iot:Publish$/, resource: /:topic\/dts\/unit-\*\/cmd\/check$/, why: "Check Install's command to the unit of the farm the installer names; the device policy lets each unit read only its own" },
  { fn: /^(ApiInstaller|InstallReconcilerJob)$/, action: /^iot:/, resource: /:thing\/unit-\*$/, why: "a new install's unit thing, named from the IMEI entered" },
  {
    fn: /^(ApiInstaller|InstallReconcilerJob)$/,
    action: /^iot:(UpdateCertificate|DeleteCertificate|AttachPolicy|DetachPolicy)$/,
    resource: /:cert\/\*$/,
    why: 'the certificate IoT makes at CreateKeysAndCertificate: its id is not known before and device certificates take no tags (no aws:ResourceTag), so IAM cannot confine these below every certificate of the account; AttachPolicy is authorized on its target alone (no resource or condition names the policy), and the code attaches only the device policy',
  },
  {
    fn: /^(TelemetryIngest|LiveHandler)$/,
    action: /^execute-api:ManageConnections$/,
    resource: /:\{LiveApi\}\/live\/POST\/@connections\/\*$/,
    why: 'posting to the live-updates WebSocket connections of its one stage: a connection id is made by API Gateway when a browser connects',
  },
  { fn: /^WebDeployment$/, action: /^(s3:|cloudfront:)/, resource: /./, why: "CDK's BucketDeployment: the asset bucket and the site bucket's objects, and CloudFront invalidation (no resource-level permission)" },
];

const WRITES = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;

const shortId = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

/** A template expression as readable text: GetAtt and Ref by short logical id, joins flattened. */
const text = (v: Json): string => {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(text).join(', ');
  if (v && typeof v === 'object') {
    const o = v as Record<string, Json>;
    if ('Ref' in o) return `{${String(o.Ref).replace(/^AWS::/, '')}}`.replace(/\{(\w+?)[0-9A-F]{8}\}/, '{$1}');
    if ('Fn::GetAtt' in o) return shortId(String((o['Fn::GetAtt'] as string[])[0]));
    if ('Fn::Join' in o) return ((o['Fn::Join'] as [string, Json[]])[1] ?? []).map(text).join((o['Fn::Join'] as [string])[0]);
    if ('Fn::Sub' in o) return String(o['Fn::Sub']);
  }
  return JSON.stringify(v);
};

interface Grant {
  readonly fn: string;
  readonly actions: readonly string[];
  readonly resources: readonly string[];
  readonly condition: boolean;
  /** The partition keys a dynamodb:LeadingKeys condition allows (`USER#*`, `WATCHMAN#LEASE`); undefined without one. */
  readonly leadingKeys?: readonly string[];
}

/** The values of a statement's dynamodb:LeadingKeys condition, whatever its operator. */
const leadingKeysOf = (condition: Json): string[] | undefined => {
  if (!condition || typeof condition !== 'object') return undefined;
  for (const test of Object.values(condition as Record<string, Record<string, Json>>)) {
    const keys = test['dynamodb:LeadingKeys'];
    if (keys !== undefined) return [keys].flat().map(String).sort();
  }
  return undefined;
};

const grantsOf = (resources: Record<string, Resource>): Grant[] => {
  const roleOfFunction = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const role = r.Properties?.Role as { 'Fn::GetAtt'?: string[] } | undefined;
    const roleId = role?.['Fn::GetAtt']?.[0];
    // Named by the role (ApiUserRole… → ApiUser): CDK's own functions have long generated ids.
    if (roleId) roleOfFunction.set(roleId, shortId(roleId).replace(/Role$/, ''));
    void id;
  }
  const grants: Grant[] = [];
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    const roles = (r.Properties?.Roles as { Ref: string }[] | undefined) ?? [];
    for (const { Ref } of roles) {
      const fn = roleOfFunction.get(Ref);
      if (!fn) continue;
      const doc = r.Properties?.PolicyDocument as { Statement: { Action: string | string[]; Resource: Json; Condition?: Json }[] };
      for (const st of doc.Statement) {
        const leadingKeys = leadingKeysOf(st.Condition);
        grants.push({ fn, actions: [st.Action].flat().map(String), resources: [st.Resource].flat().map(text), condition: st.Condition !== undefined, ...(leadingKeys ? { leadingKeys } : {}) });
      }
    }
  }
  return grants.filter((g) => !(g.actions.every((a) => a.startsWith('logs:')) && g.resources.every((x) => x.endsWith('LogGroup') || x.endsWith('Logs'))));
};

/** CDK's grantReadData / grantReadWriteData action sets, named. */
const READ = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:Query', 'dynamodb:Scan'];
const READ_WRITE = [...READ, 'dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort();
const actionsText = (actions: readonly string[]) => {
  const sorted = [...actions].sort().join(' ');
  if (sorted === [...READ].sort().join(' ')) return 'DynamoDB read';
  if (sorted === READ_WRITE.join(' ')) return 'DynamoDB read/write';
  return sorted;
};

const conditionText = (g: Grant): string => {
  if (g.leadingKeys) return ` (partition key ${g.leadingKeys.map((k) => `\`${k}\``).join(' or ')})`;
  return g.condition ? ' (with a condition)' : '';
};

/** The wildcards the template holds, per function and reason (KNOWN_WILDCARDS), each named once. */
const wildcardReasons = (grants: readonly Grant[]): string => {
  const rows = new Map<string, Set<string>>();
  for (const g of grants) {
    for (const action of g.actions) {
      for (const resource of g.resources) {
        if (!action.includes('*') && !resource.includes('*')) continue;
        const known = KNOWN_WILDCARDS.find((w) => w.fn.test(g.fn) && w.action.test(action) && w.resource.test(resource));
        if (!known || known === KNOWN_WILDCARDS[0]) continue;
        const row = `${g.fn}\t${known.why}`;
        rows.set(row, (rows.get(row) ?? new Set()).add(resource.includes('*') ? resource : action));
      }
    }
  }
  const lines = [...rows].map(([row, wild]) => {
    const [fn, why] = row.split('\t');
    return `| ${fn} | ${[...wild].sort().map((w) => `\`${w}\``).join(', ')} | ${why} |`;
  });
  return ['Wildcards, and why IAM allows nothing narrower (queries on a table\'s own indexes, `…/index/*`, aside):', '', '| function | wildcard | why |', '|---|---|---|', ...lines.sort()].join('\n');
};

/** Every key-confined grant of a port (cdk/lib/port-grants.ts), with its reason: where IAM stops at the partition key. */
const keyFamilies = (): string => {
  const lines = Object.entries(PORT_GRANTS).flatMap(([port, gs]) =>
    gs.flatMap((g) => {
      if (g.kind !== 'tableKeys') return [];
      const key = 'prefix' in g.key ? `\`${g.key.prefix}*\`` : `\`${g.key.equals}\``;
      return [`| ${port} | ${g.table} | ${key} | ${(g.actions ?? ['PutItem']).join(' ')} | ${g.why} |`];
    }),
  );
  return ['Writes confined by partition key (dynamodb:LeadingKeys; IAM has no condition on the sort key), per port:', '', '| port | table | partition key | actions | why |', '|---|---|---|---|---|', ...lines].join('\n');
};

const table = (grants: readonly Grant[]): string => {
  const byFn = new Map<string, Grant[]>();
  for (const g of grants) byFn.set(g.fn, [...(byFn.get(g.fn) ?? []), g]);
  const rows = [...byFn.keys()].sort().map((fn) => {
    const cells = (byFn.get(fn) ?? []).map((g) => `${actionsText(g.actions)} on ${g.resources.join(', ')}${conditionText(g)}`);
    return `| ${fn} | ${cells.sort().join('<br>')} |`;
  });
  return ['| function | may do (besides writing its own log group) |', '|---|---|', ...rows].join('\n');
};

const DOC = new URL('../../docs/permissions.md', import.meta.url);
const START = '<!-- permissions:start (generated by test/infra/permissions.test.ts) -->';
const END = '<!-- permissions:end -->';

let synth: Synthesized;
let grants: Grant[];
beforeAll(() => {
  synth = synthVatMan();
  grants = grantsOf(synth.template.toJSON().Resources as Record<string, Resource>);
});
afterAll(() => synth?.cleanup());

describe('least privilege per function', () => {
  it('lists every function in docs/permissions.md exactly as the template grants it', () => {
    const page = readFileSync(DOC, 'utf8');
    const generated = `${START}\n${table(grants)}\n\n${wildcardReasons(grants)}\n\n${keyFamilies()}\n${END}`;
    const current = page.includes(START) ? page.slice(page.indexOf(START), page.indexOf(END) + END.length) : '';
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, current ? page.replace(current, generated) : page);
    expect(current, 'docs/permissions.md is stale: run UPDATE_DOCS=1 npx vitest run test/infra/permissions.test.ts').toBe(generated);
  });

  it('has no wildcard in an action or a resource that is not known and explained', () => {
    const unexplained = grants.flatMap((g) =>
      g.actions.flatMap((action) =>
        g.resources
          .filter((resource) => action.includes('*') || resource.includes('*'))
          .filter((resource) => !KNOWN_WILDCARDS.some((w) => w.fn.test(g.fn) && w.action.test(action) && w.resource.test(resource)))
          .map((resource) => `${g.fn}: ${action} on ${resource}`),
      ),
    );
    expect(unexplained).toEqual([]);
  });

  it('lets only the survey endpoint publish to SNS, to the enquiry topic alone (the profile manages its caller’s alert subscription, without Publish); only the admin user endpoint changes Cognito groups; only /api/user confirms sign-ups and only the profile edits attributes', () => {
    const api = grants.filter((g) => g.fn.startsWith('Api'));
    const sns = api.filter((g) => g.actions.some((a) => a.startsWith('sns:')));
    expect(sns.map((g) => [g.fn, g.actions, g.resources]).sort()).toEqual([
      ['ApiFarmerSurvey', ['sns:Publish'], ['{ApiEnquiryTopic}']],
      ['ApiSettingProfile', ['sns:CreateTopic', 'sns:GetSubscriptionAttributes', 'sns:SetSubscriptionAttributes', 'sns:Subscribe', 'sns:Unsubscribe'], [expect.stringMatching(/-alert-email-\*$/)]],
      // Sign-up makes the new user's alert route (the post-confirmation trigger's work), without Publish.
      ['ApiUser', ['sns:CreateTopic', 'sns:GetSubscriptionAttributes', 'sns:SetSubscriptionAttributes', 'sns:Subscribe', 'sns:Unsubscribe'], [expect.stringMatching(/-alert-email-\*$/)]],
    ]);
    // Roles are group memberships (operator §6): the Users page is the one place that changes them.
    expect([...new Set(api.filter((g) => g.actions.some((a) => /Group/.test(a))).map((g) => g.fn))]).toEqual(['ApiAdminUser']);
    const cognito = api.filter((g) => g.actions.some((a) => a.startsWith('cognito-idp:')));
    expect(cognito.map((g) => [g.fn, g.actions]).sort()).toEqual([
      ['ApiAdminUser', ['cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminRemoveUserFromGroup', 'cognito-idp:ListUsersInGroup']],
      // The profile also confirms the authenticator app: reads the user's MFA settings, writes the confirmation, signs them out everywhere.
      ['ApiSettingProfile', ['cognito-idp:AdminGetUser', 'cognito-idp:AdminUpdateUserAttributes', 'cognito-idp:AdminUserGlobalSignOut']],
      // Sign-up creates the account through the admin API (the web app client writes names only); a half-made one is deleted.
      ['ApiUser', ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminSetUserPassword']],
    ]);
  });

  it('gives read-only functions no write action on any table, and the survey only PutItem on enquiry keys', () => {
    const writes = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;
    // ApiAdminUser and ApiAdminFarm write the herd and farm flags and the audit entries.
    const readOnly = ['ApiFarmerDashboard'];
    expect(grants.filter((g) => readOnly.includes(g.fn) && g.actions.some((a) => writes.test(a))).map((g) => g.fn)).toEqual([]);
    const surveyWrites = grants.filter((g) => g.fn === 'ApiFarmerSurvey' && g.actions.some((a) => writes.test(a)));
    expect(surveyWrites.map((g) => [g.actions, g.condition])).toEqual([[['dynamodb:PutItem'], true]]);
    // The milk-data views read; their one write of their own is the lookups log (and the range
    // reader's partial buckets), each a PutItem confined to its key prefix by a condition.
    const milk = grants.filter((g) => g.fn === 'ApiMilkquality' && g.actions.some((a) => writes.test(a)));
    expect(milk.length).toBeGreaterThan(0);
    expect(milk.every((g) => g.condition && g.actions.every((a) => a === 'dynamodb:PutItem'))).toBe(true);
    // The Watchman page reads; SAVE_SETTINGS puts the settings item with its audit entry, in one
    // transaction on key-confined items alone (decision 050).
    const watchman = grants.filter((g) => g.fn === 'ApiWatchman' && g.actions.some((a) => writes.test(a)));
    // (Two statements: the key prefixes' StringLike and WATCHMAN's StringEquals.)
    expect(watchman.map((g) => [g.actions, g.condition])).toEqual([
      [['dynamodb:PutItem', 'dynamodb:UpdateItem'], true],
      [['dynamodb:PutItem', 'dynamodb:UpdateItem'], true],
    ]);
  });

  it('gives no function dynamodb:Scan unless a port of its scans, and a port grants Scan only if an adapter sends a ScanCommand', () => {
    const adapters = fileURLToPath(new URL('../../lambdas/adapters/dynamodb/', import.meta.url));
    const sources = (readdirSync(adapters, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const scans = sources.some((f) => readFileSync(join(adapters, f), 'utf8').includes('ScanCommand'));
    const scanningPorts = Object.entries(PORT_GRANTS)
      .filter(([, gs]) => gs.some((g) => (g.kind === 'table' || g.kind === 'tableKeys') && (g.actions ?? []).includes('Scan')))
      .map(([name]) => name);
    if (!scans) expect(scanningPorts).toEqual([]);
    // With no port granting it, no function may hold it (a grant from outside the port table would show here).
    if (!scanningPorts.length) expect(grants.filter((g) => g.actions.some((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*')).map((g) => g.fn)).toEqual([]);
  });

  it('gives Scan or DeleteItem only on the tables whose items the function deletes', () => {
    const wide = /^dynamodb:(Scan|DeleteItem|\*)$/;
    const tablesOf = (fn: string) =>
      [...new Set(grants.filter((g) => g.fn === fn && g.actions.some((a) => wide.test(a))).flatMap((g) => g.resources.filter((r) => !r.includes('/index/'))))].sort();
    const holders = Object.fromEntries([...new Set(grants.map((g) => g.fn))].sort().map((fn) => [fn, tablesOf(fn)] as const).filter(([, t]) => t.length > 0));
    expect(holders).toEqual({
      // The ingest's alert engine clears open conditions (Alerts); the ingest replaces activities (Readings); live pushes drop closed connections.
      // The notifier (ingest and sweep) removes a browser's push subscription its push service says is gone (USER# keys only).
      TelemetryIngest: ['DataAlerts', 'DataConnections', 'DataFarms', 'DataReadings'],
      // The alert engine clears open conditions.
      AlertEngineSweep: ['DataAlerts', 'DataFarms'],
      ApiFarmerActivity: ['DataAlerts', 'DataFarms'],
      ApiFarmerNotification: ['DataAlerts'],
      ApiFarmerSetting: ['DataAlerts'],
      DairyLinkSync: ['DataAlerts'],
      // Pickups and organizations delete under their own key prefix only (a condition).
      ApiFarmerOrganization: ['DataFarms'],
      // The undo of a failed new install: the farm and its devices, the unit and its install log.
      ApiInstaller: ['DataFarms'],
      // PUSH_UNSUBSCRIBE deletes the caller's own subscription (USER# keys only).
      ApiSettingProfile: ['DataFarms'],
      // The install reconciler undoes a stuck install's records (deletes conditional on the run's request id).
      InstallReconcilerJob: ['DataFarms'],
      LiveHandler: ['DataConnections'],
      // Its lease and open cases, under WATCHMAN keys only (a condition).
      WatchmanJob: ['DataFarms'],
    });
  });

  /** A function's write statements on a table: the actions and the partition keys they are confined to ('whole table' without a condition). */
  const writesOn = (fn: string, table: string) =>
    grants
      .filter((g) => g.fn === fn && g.resources.includes(table))
      .flatMap((g) => {
        const writes = g.actions.filter((a) => WRITES.test(a)).sort();
        return writes.length ? [{ actions: writes, keys: g.leadingKeys ?? 'whole table' }] : [];
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it('lets sign-up and the profile write only the person’s own partition of the Farms table (USER#), never a farm’s, an organization’s or Watchman’s', () => {
    // Sign-up puts the profile, its listing entry and the alert route; the profile updates the profile and re-sends the route.
    expect(writesOn('ApiUser', 'DataFarms')).toEqual([{ actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['USER#*'] }]);
    // …and its push subscriptions are put and deleted there too.
    expect(writesOn('ApiSettingProfile', 'DataFarms')).toEqual([{ actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['USER#*'] }]);
    // The post-confirmation trigger makes the alert route alone.
    expect(writesOn('AlertEnginePostConfirmationTrigger', 'DataFarms')).toEqual([{ actions: ['dynamodb:PutItem'], keys: ['USER#*'] }]);
    // A push's acknowledgement (PUSH_ACKNOWLEDGE, public) marks its notification read: UpdateItem alone, in the farm's alert partition.
    expect(writesOn('ApiUser', 'DataAlerts')).toEqual([{ actions: ['dynamodb:UpdateItem'], keys: ['FARM#*'] }]);
    for (const fn of ['ApiUser', 'ApiSettingProfile', 'AlertEnginePostConfirmationTrigger']) {
      if (fn !== 'ApiUser') expect(writesOn(fn, 'DataAlerts'), fn).toEqual([]);
      expect(writesOn(fn, 'DataReadings'), fn).toEqual([]);
    }
  });

  it('lets the ingest write only the key families it writes: device state and knode assets in Farms, its own families in Readings, farms and engines in Alerts', () => {
    expect(writesOn('TelemetryIngest', 'DataFarms')).toEqual([
      // A browser's push subscription removed when its push service says it is gone.
      { actions: ['dynamodb:DeleteItem'], keys: ['USER#*'] },
      // A knode gateway's asset reading (sk KNODE#…) under its farm; the alert route the notifier makes for a user who has none.
      { actions: ['dynamodb:PutItem'], keys: ['FARM#*', 'USER#*'] },
      // The ingest's state and live values on the device item.
      { actions: ['dynamodb:UpdateItem'], keys: ['DEVICE#*'] },
    ]);
    const readings = writesOn('TelemetryIngest', 'DataReadings');
    expect(readings).toEqual([
      { actions: ['dynamodb:BatchWriteItem', 'dynamodb:PutItem'], keys: ['R#*'] },
      { actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem'], keys: ['A#*'] },
      { actions: ['dynamodb:PutItem'], keys: ['B#*', 'S#*', 'X#*'] },
      // An open day's drop marker: bumped, never put (the range reads keep open days in memory).
      { actions: ['dynamodb:UpdateItem'], keys: ['P#*'] },
    ]);
    // The farmer's herd notes and Watchman's digests are out of its reach.
    expect(readings.flatMap((w) => w.keys)).not.toContain('H#*');
    expect(readings.flatMap((w) => w.keys)).not.toContain('W#*');
    expect(writesOn('TelemetryIngest', 'DataAlerts')).toEqual([
      { actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['FARM#*'] },
      { actions: ['dynamodb:PutItem'], keys: ['DEVICE#*'] },
      // The fleet overview's counters (alerts raised by hour and type, ingest batches).
      { actions: ['dynamodb:UpdateItem'], keys: ['STATS#*'] },
    ]);
  });

  it('splits Watchman: the job writes its lease, runs and cases by their exact partitions and the farm flag alone, never the settings; only SAVE_SETTINGS writes the settings', () => {
    expect(writesOn('WatchmanJob', 'DataFarms')).toEqual([
      { actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem'], keys: ['WATCHMAN#CASE', 'WATCHMAN#LEASE'] },
      { actions: ['dynamodb:PutItem'], keys: ['WATCHMAN#RUN'] },
      // The dairy-company sync flag: an UpdateItem of the farm item.
      { actions: ['dynamodb:UpdateItem'], keys: ['FARM#*'] },
    ]);
    // Exact keys (StringEquals), so WATCHMAN (the settings) is matched by none of the job's.
    const equals = grants.filter((g) => g.fn === 'WatchmanJob' && g.leadingKeys?.some((k) => k.startsWith('WATCHMAN')));
    expect(equals.every((g) => g.leadingKeys?.every((k) => !k.includes('*')))).toBe(true);
    // SAVE_SETTINGS writes the settings and their audit entry in one transaction, and nothing else.
    expect(writesOn('ApiWatchman', 'DataFarms')).toEqual([
      { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['AUDIT#*'] },
      { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: ['WATCHMAN'] },
    ]);
    expect(writesOn('WatchmanJob', 'DataAlerts')).toEqual([]);
    expect(writesOn('WatchmanJob', 'DataReadings')).toEqual([{ actions: ['dynamodb:BatchWriteItem'], keys: ['W#*'] }]);
  });

  it('confines every write of the functions that write no farm-wide records to key families', () => {
    // Functions whose every DynamoDB write has a dynamodb:LeadingKeys condition (the installer, the
    // admin pages, settings, equipment and the dairy sync still write whole tables through farmsWrite,
    // auditWrite, alertSettingsWrite, equipmentWrite and dairyWrite).
    const confined = ['ApiUser', 'ApiSettingProfile', 'AlertEnginePostConfirmationTrigger', 'TelemetryIngest', 'WatchmanJob', 'ApiWatchman', 'ApiFarmerSurvey', 'ApiMilkquality', 'ApiFarmerOrganization', 'AlertEngineDeviceReply'];
    const wide = grants.filter((g) => confined.includes(g.fn) && g.actions.some((a) => WRITES.test(a)) && g.resources.some((r) => r.startsWith('Data') && r !== 'DataConnections') && !g.leadingKeys);
    expect(wide.map((g) => `${g.fn}: ${g.actions.join(' ')} on ${g.resources.join(', ')}`)).toEqual([]);
  });
});
