import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionEnv, endpointFunctionId, synthVatMan, TEST_RECAPTCHA_SITE_KEY, type Synthesized } from './synth';

/** The config.json the web deployment writes, its deploy-time markers left as they are. */
const deployedConfig = (synth: Synthesized): Record<string, string> => {
  const [deployment] = Object.values(synth.template.findResources('Custom::CDKBucketDeployment')) as { Properties: { SourceObjectKeys: string[] } }[];
  const key = deployment?.Properties.SourceObjectKeys[1] ?? '';
  return JSON.parse(readFileSync(path.join(synth.assembly.directory, `asset.${key.replace(/\.zip$/, '')}`, 'config.json'), 'utf8')) as Record<
    string,
    string
  >;
};

const withSynth = <T>(context: Record<string, unknown>, check: (synth: Synthesized) => T): T => {
  const synth = synthVatMan({ stage: 'dev', context });
  try {
    return check(synth);
  } finally {
    synth.cleanup();
  }
};

describe('the bot-check configuration (spec §7): never silently off', () => {
  it('reCAPTCHA (the default) puts the site key from -c recaptchaSiteKey into config.json', () => {
    withSynth({ recaptchaSiteKey: 'site-key-from-context' }, (synth) => {
      expect(deployedConfig(synth).recaptchaSiteKey).toBe('site-key-from-context');
      expect(functionEnv(synth.template, endpointFunctionId(synth.template, '/api/user')).BOT_CHECK).toBe('recaptcha');
    });
  });

  it('without -c recaptchaSiteKey, reads the site key at deploy time from SSM (plain `cdk synth` works offline)', () => {
    for (const context of [{ recaptchaSiteKey: undefined }, { recaptchaSiteKey: '  ' }]) {
      withSynth(context, (synth) => {
        const parameters = synth.template.toJSON().Parameters as Record<string, { Type: string; Default?: string }>;
        const [ssmId] = Object.entries(parameters).find(([, p]) => p.Default === '/vatman/recaptcha-site-key') ?? [];
        expect(ssmId).toBeDefined();
        expect(parameters[ssmId as string]?.Type).toBe('AWS::SSM::Parameter::Value<String>');
        // A deploy-time value: in config.json it stands as the deployment's marker for that parameter.
        expect(deployedConfig(synth).recaptchaSiteKey).toMatch(/^<<marker:/);
      });
    }
  });

  it('refuses a site key with the check off: a checkbox nobody checks', () => {
    expect(() => synthVatMan({ context: { botCheck: 'off' } })).toThrow(/recaptchaSiteKey is set but botCheck is 'off'/);
  });

  it('off by name: no site key in config.json and BOT_CHECK=off on the API', () => {
    withSynth({ botCheck: 'off', recaptchaSiteKey: undefined }, (synth) => {
      expect(deployedConfig(synth)).not.toHaveProperty('recaptchaSiteKey');
      expect(functionEnv(synth.template, endpointFunctionId(synth.template, '/api/user')).BOT_CHECK).toBe('off');
    });
  });

  it("the tests' own synth uses a stand-in site key", () => {
    withSynth({}, (synth) => expect(deployedConfig(synth).recaptchaSiteKey).toBe(TEST_RECAPTCHA_SITE_KEY));
  });
});

describe("the provider's contacts from context (farmer §1, §2.1, §2.2, §2.16; operator §2 Help)", () => {
  it('puts -c supportUrl, -c herdSiteUrl, -c supportPhones and -c installFormUrl into config.json, and refuses a value that is not a URL', () => {
    withSynth(
      { supportUrl: 'https://help.example.nz', herdSiteUrl: 'https://herd.example.nz/login', supportPhones: '[{"label":"Vat-Man","phone":"0800 1"}]', installFormUrl: 'https://dairy.example.nz/form' },
      (synth) => {
        const config = deployedConfig(synth) as Record<string, unknown>;
        expect(config).toMatchObject({
          supportUrl: 'https://help.example.nz',
          herdSiteUrl: 'https://herd.example.nz/login',
          supportPhones: [{ label: 'Vat-Man', phone: '0800 1' }],
          installFormUrl: 'https://dairy.example.nz/form',
        });
      },
    );
    expect(() => synthVatMan({ context: { herdSiteUrl: 'not a url' } })).toThrow(/herdSiteUrl/);
  });
});
