import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removalPolicyFor, stageFromContext } from '../../cdk/lib/stage';
import { nagViolations, synthVatMan, type Synthesized } from './synth';

describe('stage context', () => {
  it('defaults to prod and rejects unknown stages', () => {
    expect(stageFromContext(new App().node)).toBe('prod');
    expect(stageFromContext(new App({ context: { stage: 'dev' } }).node)).toBe('dev');
    expect(() => stageFromContext(new App({ context: { stage: 'test' } }).node)).toThrow(/dev, prod/);
    expect(removalPolicyFor('prod')).not.toBe(removalPolicyFor('dev'));
  });
});

describe('a dev stack', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthVatMan({ stage: 'dev' });
  });
  afterAll(() => synth.cleanup());

  it('deletes its data stores with the stack, so it can be torn down and rebuilt', () => {
    const { template } = synth;
    for (const type of [
      'AWS::DynamoDB::GlobalTable',
      'AWS::Cognito::UserPool',
      'AWS::S3::Bucket',
      'AWS::Logs::LogGroup',
    ]) {
      const found = Object.values(template.findResources(type));
      expect(found.length, type).toBeGreaterThan(0);
      for (const resource of found) expect(resource, type).toMatchObject({ DeletionPolicy: 'Delete' });
    }
    template.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'INACTIVE' });
    // Non-empty buckets are emptied first, or CloudFormation could not delete them.
    expect(Object.keys(template.findResources('Custom::S3AutoDeleteObjects'))).toHaveLength(2);
  });

  it('also has no unacknowledged cdk-nag findings', () => {
    expect(nagViolations(synth.assembly)).toEqual([]);
  });
});
