/** The command table and what is derived from it: paths, input rules on every surface, operations. */
import { describe, expect, it } from 'vitest';
import { ChangeOperationSchema } from '../gen/counter_pb.js';
import { commandOperation, COUNTER_REQUEST_EXAMPLES, COUNTER_SCHEMAS } from './command-operations.ts';
import { domainCommand, inputFromJsonValue, inputFromValues } from './command-input.ts';
import { COMMAND_NAMES, commandSpec, isCommandName, restCommandPath, serverFunctionPath } from './commands.ts';
import { COMMAND_BY_OPERATION } from './grpc/messages.ts';

describe('the command table', () => {
  it('derives each command’s REST route and server function from its name', () => {
    expect(COMMAND_NAMES).toEqual(expect.arrayContaining(['increment', 'decrement', 'reset']));
    for (const name of COMMAND_NAMES) {
      expect(restCommandPath(name)).toBe(`/api/counter/${name}`);
      expect(serverFunctionPath(name)).toBe(`/api/${name}_count`);
    }
  });

  it('names only commands of the table as inverses, each undoing the other', () => {
    for (const name of COMMAND_NAMES) {
      const inverse = commandSpec(name).inverse;
      if (inverse === undefined) continue;
      expect(isCommandName(inverse), `${name} → ${inverse}`).toBe(true);
      if (isCommandName(inverse)) expect(commandSpec(inverse).inverse).toBe(name);
    }
  });

  it('checks an input the same way whichever surface carries it', () => {
    expect(domainCommand('increment', inputFromJsonValue('increment', { amount: 3, extra: true }))).toEqual({ type: 'increment', amount: 3 });
    expect(domainCommand('reset', inputFromValues('reset', {}))).toEqual({ type: 'reset' });
    expect(() => inputFromValues('decrement', { amount: 0 })).toThrow(expect.objectContaining({ code: 'validation', message: 'amount must be positive' }));
    expect(() => inputFromJsonValue('decrement', {})).toThrow(expect.objectContaining({ code: 'validation', message: 'amount is required' }));
    expect(() => inputFromJsonValue('decrement', 'x')).toThrow(
      expect.objectContaining({ message: 'request body must be a JSON object with "amount" (a positive 32-bit integer)' }),
    );
  });

  it('gives every ChangeOperation of counter.proto a command of the table, by name', () => {
    const named = ChangeOperationSchema.values.filter((value) => value.localName !== 'UNSPECIFIED');
    expect(named.map((value) => COMMAND_BY_OPERATION.get(value.number))).toEqual(named.map((value) => value.localName.toLowerCase()));
  });

  it('derives operations with the input, answers and codes of each surface', () => {
    const rest = commandOperation('decrement', 'rest');
    expect(rest).toMatchObject({ path: '/api/counter/decrement', operationId: 'decrementCounter', summary: 'Subtract a positive amount (given in the query)' });
    expect(rest.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([['amount', 'query', true]]);
    expect(rest.errors).toEqual(['validation', 'domain', 'unauthorized', 'concurrency', 'forbidden', 'payload_too_large', 'store', 'internal']);
    const serverFunction = commandOperation('decrement', 'server function');
    expect(serverFunction).toMatchObject({ operationId: 'decrement_count', body: { schema: 'AmountBody' }, summary: 'Server function: subtract a positive amount' });
    expect(serverFunction.errors).toContain('unsupported_media_type');
    const reset = commandOperation('reset', 'rest');
    expect([reset.body, reset.parameters, reset.errors[0], reset.security]).toEqual([undefined, undefined, 'unauthorized', 'session']);
    expect(Object.keys(COUNTER_SCHEMAS)).toEqual(expect.arrayContaining(['CounterView', 'EventLog', 'AmountBody']));
    expect(COUNTER_REQUEST_EXAMPLES).toMatchObject({ AmountBody: { amount: 1 } });
  });
});
