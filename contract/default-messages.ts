import { z } from 'zod';

const KINDS: Record<string, string> = { string: 'a string', number: 'a number', int: 'a whole number', boolean: 'true or false', array: 'a list', object: 'an object' };
/** The words for a value missing, or not an object: at the top of a request body, the error helper says more. */
export const REQUIRED = 'is required';
export const NOT_AN_OBJECT = `must be ${KINDS.object}`;
const plural = (count: number | bigint, one: string, many: string) => `${count} ${Number(count) === 1 ? one : many}`;

/**
 * Plain words for the rules a schema states without a message of its own (a type, a length): an
 * API caller sent the wrong shape, and "Invalid input: expected string, received array" is the
 * parser talking. A schema's own message always wins over these. They follow the field's name
 * ("client_id: must be a string"), as the error helper writes them.
 */
const defaultMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? REQUIRED : `must be ${KINDS[issue.expected] ?? issue.expected}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${plural(issue.maximum, 'character', 'characters')}`;
      if (issue.origin === 'array') return `must have at most ${plural(issue.maximum, 'item', 'items')}`;
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) === 1 ? REQUIRED : `must be at least ${plural(issue.minimum, 'character', 'characters')}`;
      if (issue.origin === 'array') return `must have at least ${plural(issue.minimum, 'item', 'items')}`;
      return `must be at least ${issue.minimum}`;
    case 'unrecognized_keys': {
      // The keys are the caller's, of any length: a few, shortened.
      const named = issue.keys.slice(0, 3).map((key) => JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key));
      const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : '';
      return `${issue.keys.length === 1 ? 'Unknown field' : 'Unknown fields'} ${named.join(', ')}${more}: this request does not take ${issue.keys.length === 1 ? 'it' : 'them'}`;
    }
    case 'invalid_union':
      return 'is not valid';
    default:
      return undefined;
  }
};

/** Makes these the defaults of every schema parsed in this process. */
export const installDefaultMessages = () => z.config({ customError: defaultMessage });
