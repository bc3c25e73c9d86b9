import type { KyselyPlugin } from 'kysely';

/**
 * A Kysely plugin that fails the statements of one kind sent through it (every one, or the first
 * `times`) with `message`, as a full disk or a broken connection would.
 */
export function failingQueries(kind: 'InsertQueryNode' | 'UpdateQueryNode' | 'DeleteQueryNode', message: string, times = Infinity): KyselyPlugin {
  let left = times;
  return {
    transformQuery: (args) => {
      if (args.node.kind === kind && left > 0) {
        left -= 1;
        throw new Error(message);
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}
