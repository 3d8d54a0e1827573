import type { Server } from 'node:http';
import { startAwsJsonServer } from './aws-json-server';

/** A parameter as SSM keeps it (the value of a SecureString is kept as given: nothing is encrypted locally). */
interface Parameter {
  readonly value: string;
  readonly type: 'String' | 'SecureString';
  readonly version: number;
  readonly modified: number;
}

interface SsmStandIn {
  readonly server: Server;
  readonly endpoint: string;
  /** Sets a parameter (what an operator's `aws ssm put-parameter --overwrite` does in AWS). */
  put(name: string, value: string, type?: Parameter['type']): void;
}

/**
 * SSM Parameter Store's GetParameter and PutParameter (the AWS JSON 1.1 protocol the SDK speaks),
 * in memory: the secrets the functions read at run time (the dairy gateway's token), so the same
 * SSM adapter code runs locally and a token can be rotated under a running stack.
 */
export const startSsm = async (port: number): Promise<SsmStandIn> => {
  const parameters = new Map<string, Parameter>();
  const put = (name: string, value: string, type: Parameter['type'] = 'SecureString'): number => {
    const version = (parameters.get(name)?.version ?? 0) + 1;
    parameters.set(name, { value, type, version, modified: Date.now() });
    return version;
  };
  const server = await startAwsJsonServer(port, { version: '1.1', targetPrefix: /^AmazonSSM\./, notJsonType: 'SerializationException' }, (action, input, answer) => {
    const name = typeof input.Name === 'string' ? input.Name : '';
    if (!name) return answer(400, { __type: 'ValidationException', message: 'Name is required' });
    if (action === 'GetParameter') {
      const p = parameters.get(name);
      if (!p) return answer(400, { __type: 'ParameterNotFound', message: `Parameter ${name} not found.` });
      return answer(200, {
        Parameter: { Name: name, Type: p.type, Value: p.value, Version: p.version, LastModifiedDate: p.modified / 1000, ARN: `arn:aws:ssm:us-east-1:000000000000:parameter${name}`, DataType: 'text' },
      });
    }
    if (action === 'PutParameter') {
      if (typeof input.Value !== 'string' || input.Value === '') return answer(400, { __type: 'ValidationException', message: 'Value is required' });
      if (parameters.has(name) && input.Overwrite !== true) return answer(400, { __type: 'ParameterAlreadyExists', message: 'The parameter already exists.' });
      const type = input.Type === 'String' ? 'String' : 'SecureString';
      return answer(200, { Version: put(name, input.Value, type), Tier: 'Standard' });
    }
    return answer(400, { __type: 'UnknownOperationException', message: `${action} is not supported by the local SSM stand-in` });
  });
  return {
    server,
    endpoint: `http://127.0.0.1:${port}`,
    put: (name, value, type) => void put(name, value, type),
  };
};
