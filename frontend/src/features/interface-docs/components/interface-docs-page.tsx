import type * as z from 'zod';
import { collectionEventSchema, milkingEventSchema, vatExceptionSchema } from '@shared/dairy-company/payloads';
import { DOC_FAKE_FARM, DOC_REAL_FARM, DOC_TEST_GATEWAY, SCENARIOS } from '@shared/dairy-company/scenarios';
import './interface-docs.css';

const fieldsOf = (schema: z.ZodObject) => Object.keys(schema.shape).join(', ');

/**
 * The external telemetry interface page (operator §2, §3, §7, §8): static developer documentation
 * of the dairy company's gateway. Everything on it comes from the definitions the exporter sends
 * with (shared/dairy-company): the payload fields from its zod schemas, and scenarios E2E01-E2E10,
 * whose answers test/integration/dairy-gateway.test.ts checks against the local gateway stand-in.
 */
export function InterfaceDocsPage() {
  return (
    <main className="interface-docs">
      <h1>External telemetry interface</h1>
      <section>
        <h2>Pre - Requisites</h2>
        <dl className="interface-docs__facts">
          <dt>Endpoint (test gateway)</dt>
          <dd>{DOC_TEST_GATEWAY}</dd>
          <dt>Real farm id</dt>
          <dd>{DOC_REAL_FARM}</dd>
          <dt>Fake farm id</dt>
          <dd>{DOC_FAKE_FARM}</dd>
        </dl>
        <ul>
          <li>POST /v5/milkvattelemetry/{'{supplierId}'}/milkingevent: {fieldsOf(milkingEventSchema)}</li>
          <li>POST /v5/milkvattelemetry/{'{supplierId}'}/collectionevent: {fieldsOf(collectionEventSchema)}</li>
          <li>POST /v5/milkvattelemetry/{'{supplierId}'}/vatexceptions: {fieldsOf(vatExceptionSchema)}</li>
          <li>Every answer is JSON {'{code, message}'}; temperatures are decimals with exactly one decimal place.</li>
        </ul>
      </section>
      {SCENARIOS.map((s) => (
        <section key={s.id} aria-label={s.id} className="interface-docs__scenario">
          <h2>
            {s.id}: {s.title}
          </h2>
          <dl className="interface-docs__facts">
            <dt>url</dt>
            <dd>{`${DOC_TEST_GATEWAY}${s.url}`}</dd>
            <dt>timestamp</dt>
            <dd>{s.timestamp}</dd>
            <dt>method</dt>
            <dd>POST</dd>
          </dl>
          <h3>Request</h3>
          <pre className="interface-docs__json">{s.request}</pre>
          <h3>Response ({s.status})</h3>
          <pre className="interface-docs__json">{JSON.stringify(s.response, null, 2)}</pre>
        </section>
      ))}
    </main>
  );
}
