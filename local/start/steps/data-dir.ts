import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertPortFree, type TcpPortName } from '../../tcp-ports';
import type { LocalConfig } from '../config';
import type { LocalFacts } from '../facts';

/** Every port free (a clear message instead of EADDRINUSE's stack trace) and the data folder there. */
export const prepareDataDir = async (config: LocalConfig): Promise<void> => {
  for (const name of Object.keys(config.ports) as TcpPortName[]) await assertPortFree(name, config.ports[name]);
  mkdirSync(config.dataDir, { recursive: true });
};

const factsFile = (config: LocalConfig) => join(config.dataDir, 'local.json');

export const writeFacts = (config: LocalConfig, facts: LocalFacts): void => {
  writeFileSync(factsFile(config), `${JSON.stringify(facts, null, 2)}\n`);
};
