import * as z from 'zod';
import type { Access, Contract } from './contract';
import { ENDPOINTS, type Endpoint } from './endpoints';
import { jsonFields } from './fields';

/**
 * The API reference as an OpenAPI 3.1 document, made from the action contracts and
 * nothing else: a contract added to shared/api/contracts.ts is in the next `npm run openapi`.
 * The schemas are zod's own JSON Schema (`z.toJSONSchema`, draft 2020-12, which OpenAPI 3.1 uses
 * as is); a JSON-valued field (fields.ts `jsonField`) is described as the text it is on the wire,
 * a string whose `contentSchema` is the value's schema.
 */

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = Record<string, unknown> & {
  readonly paths: Record<string, { post: Record<string, unknown> }>;
  readonly components: Record<string, unknown> & { schemas: Record<string, JsonSchema> };
};

const FORM = 'application/x-www-form-urlencoded';

/** The rule in words, as the reference shows it beside `x-access`. */
const accessText = (rule: Access): string => {
  switch (rule.kind) {
    case 'public':
      return 'Public: no token needed (a valid bearer token is still read).';
    case 'self':
      return "Any signed-in caller, acting on their own record (the token's user).";
    case 'farmMember':
      return `A farmer linked to the farm named by \`${rule.field}\`; Admin any farm. An unknown farm is a 403 like a foreign one.`;
    case 'activityMember':
      return `A farmer linked to the farm of the ${rule.activity} activity named by \`${rule.field}\`; Admin any. An unknown activity is a 403 like a foreign one.`;
    case 'operator':
      return rule.groups.length === 0
        ? 'Admin only (the Cognito group, with a confirmed authenticator app).'
        : `Admin, and members of the Cognito group${rule.groups.length > 1 ? 's' : ''} ${rule.groups.join(', ')}; each with a confirmed authenticator app.`;
    case 'orgMember':
      return `A user with a role in the organization named by \`${rule.field}\` or one above it; Admin any.${rule.optional ? ' An empty field lists the caller’s own organizations.' : ''}`;
    case 'orgAdmin':
      return `A user whose role in the organization named by \`${rule.field}\` (or one above it) is the organization role Admin; the Admin group any.`;
  }
};

/** A schema name for an action: its type, or `<handler>.<type>` where two endpoints share the type. */
const namesOf = (contracts: readonly Contract[]): Map<Contract, string> => {
  const count = new Map<string, number>();
  for (const c of contracts) count.set(c.type, (count.get(c.type) ?? 0) + 1);
  const handler = (path: string) => (ENDPOINTS as readonly Endpoint[]).find((e) => e.path === path)?.handler ?? path;
  return new Map(contracts.map((c) => [c, (count.get(c.type) ?? 0) > 1 ? `${handler(c.path)}.${c.type}` : c.type]));
};

/**
 * One zod schema as a component: zod's `$defs` (recursive or shared parts) become components of
 * their own named after the owner, and `$schema` goes (the document declares its dialect once).
 */
const toComponent = (schema: z.ZodType, io: 'input' | 'output', name: string, components: Record<string, JsonSchema>): JsonSchema => {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const json = jsonFields.get(zodSchema);
      if (io !== 'input' || !json) return;
      const { description, ...value } = jsonSchema as JsonSchema;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, {
        type: 'string',
        maxLength: json.maxChars,
        contentMediaType: 'application/json',
        contentSchema: value,
        description: `${typeof description === 'string' ? `${description} ` : ''}JSON text of the value described by contentSchema (a JSON body may carry the value itself).`,
      });
    },
  }) as JsonSchema;
  const { $schema: _dialect, $defs, ...body } = generated;
  const rename = (key: string) => `${name}.${key}`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${rename(v.slice(8))}` : k === '$ref' && v === '#' ? `#/components/schemas/${name}` : rewrite(v)]),
    );
  };
  for (const [key, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) components[rename(key)] = rewrite(def) as JsonSchema;
  return rewrite(body) as JsonSchema;
};

/** The property names that are JSON text in every action of an endpoint that has them (the form's `encoding`). */
const jsonPropertiesOf = (schemas: readonly JsonSchema[]): string[] => {
  const seen = new Map<string, boolean>();
  for (const s of schemas) {
    for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) {
      const isJson = prop.contentMediaType === 'application/json';
      seen.set(key, (seen.get(key) ?? true) && isJson);
    }
  }
  return [...seen].filter(([, json]) => json).map(([key]) => key).sort();
};

const ERRORS = {
  '401': 'No valid bearer token (a public type answers without one).',
  '403': 'The access rule refused the caller, or the named farm, activity or organization is unknown or foreign (the same answer, so ids cannot be probed).',
  '422': 'Invalid input: an unknown `type` (`Unknown type: X`), a field the schema refuses (its message, or a list of messages), an unreadable body, or an action refusing the request. Nothing was stored.',
  '429': 'Too many requests: the stage throttle or the per-caller limit. Wait and send again.',
  '500': 'Something unexpected; the body is `{ "message": "Server Error!" }` and the details go to the log only.',
} as const;

const DESCRIPTION = [
  'Every call is `POST <path>` with a form-encoded body (`application/x-www-form-urlencoded`; a JSON body with the same fields is also accepted, and `FARMS_SETTINGS_UPLOAD` takes `multipart/form-data`). The field `type` selects the action; each path documents its actions as a `oneOf` discriminated by `type`.',
  'JSON-valued fields (`user`, `item`, `alert_setting`, …) are JSON text in the form: strings with `contentMediaType: application/json` and the value’s schema as `contentSchema`.',
  'Success is status 200 with the action’s answer as JSON. Errors are `{ "message": string | string[] }` with status 401, 403, 422, 429 or 500.',
  'Each action’s access rule is in its description and as `x-access` (kinds: public, self, farmMember, activityMember, operator, orgMember, orgAdmin). The server checks every rule itself; roles come from the Cognito groups in the verified token only.',
].join('\n\n');

/** The OpenAPI 3.1 document of the given contracts (every declared contract, for docs/openapi.json). */
export const openApiDocument = (contracts: readonly Contract[], version: string): OpenApiDocument => {
  const names = namesOf(contracts);
  const schemas: Record<string, JsonSchema> = {
    Error: {
      type: 'object',
      description: 'Every error answer (spec §8).',
      properties: { message: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
      required: ['message'],
    },
  };
  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of ENDPOINTS as readonly Endpoint[]) {
    const actions = contracts.filter((c) => c.path === endpoint.path);
    if (actions.length === 0) continue;
    const forms: JsonSchema[] = [];
    for (const c of actions) {
      const name = names.get(c) as string;
      const access = accessText(c.access);
      const input = toComponent(c.input, 'input', name, schemas);
      forms.push(input);
      schemas[name] = { title: c.type, description: `**Access:** ${access}`, 'x-access': { ...c.access }, ...input };
      schemas[`${name}.answer`] = { title: `${c.type} answer`, ...toComponent(c.answer, 'input', `${name}.answer`, schemas) };
    }
    const refs = actions.map((c) => ({ $ref: `#/components/schemas/${names.get(c) as string}` }));
    const answers = actions.map((c) => ({ $ref: `#/components/schemas/${names.get(c) as string}.answer` }));
    const jsonProps = jsonPropertiesOf(forms);
    const table = actions.map((c) => `| \`${c.type}\` | \`${c.access.kind}\` | ${accessText(c.access).replaceAll('|', '\\|')} |`);
    paths[endpoint.path] = {
      post: {
        operationId: endpoint.handler.replace(/-(\w)/g, (_m: string, ch: string) => ch.toUpperCase()),
        summary: `${endpoint.path}: ${actions.length} action${actions.length > 1 ? 's' : ''}`,
        description: [
          endpoint.auth === 'public'
            ? 'A public route: the public types answer without a token; the others need a bearer token, which the function verifies itself.'
            : 'Behind the JWT authorizer: every type needs a bearer token (a Cognito ID or access token).',
          '',
          '| type | x-access | who may call it |',
          '|---|---|---|',
          ...table,
        ].join('\n'),
        tags: [endpoint.area],
        security: endpoint.auth === 'public' ? [{}, { bearer: [] }] : [{ bearer: [] }],
        'x-actions': Object.fromEntries(actions.map((c) => [c.type, { schema: names.get(c), answer: `${names.get(c) as string}.answer`, 'x-access': { ...c.access } }])),
        requestBody: {
          required: true,
          content: {
            [FORM]: {
              schema: refs.length === 1 ? refs[0] : { oneOf: refs, discriminator: { propertyName: 'type', mapping: Object.fromEntries(actions.map((c, i) => [c.type, (refs[i] as { $ref: string }).$ref])) } },
              ...(jsonProps.length > 0 ? { encoding: Object.fromEntries(jsonProps.map((p) => [p, { contentType: 'application/json' }])) } : {}),
            },
          },
        },
        responses: {
          '200': {
            description: 'The answer of the action named by `type` (see each `<TYPE>.answer` schema).',
            content: { 'application/json': { schema: answers.length === 1 ? answers[0] : { anyOf: answers } } },
          },
          ...Object.fromEntries(Object.entries(ERRORS).map(([status]) => [status, { $ref: `#/components/responses/Error${status}` }])),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vat-Man API',
      version,
      summary: 'Milk-vat monitoring for dairy farms: every action of the web app’s API.',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/', description: 'The site itself: the API is served at /api/* on the web app’s own address.' }],
    tags: [
      { name: 'farmer', description: 'Endpoints of the farmer area (farmer spec §7).' },
      { name: 'operator', description: 'Endpoints of the operator area (operator spec §7).' },
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A Cognito ID or access token of the user pool (Authorization: Bearer …).' } },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([status, description]) => [`Error${status}`, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
      ),
      schemas,
    },
  };
};
