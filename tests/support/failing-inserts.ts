import type { KyselyPlugin } from 'kysely';

/** A Kysely plugin that fails every insert sent through it with `message`, as a full disk would. */
export const failingInserts = (message: string): KyselyPlugin => ({
  transformQuery: (args) => {
    if (args.node.kind === 'InsertQueryNode') throw new Error(message);
    return args.node;
  },
  transformResult: async (args) => args.result,
});
