import { useForm, type DefaultValue, type Submission } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { z } from 'zod';

type Options<S extends z.ZodType<Record<string, any>>> = {
  id: string;
  /** The contract's schema (or the form's, built on it): the same rules the server checks. */
  schema: S;
  /** The fields' first text, as a saved draft or a known value gives it. */
  defaultValue?: Record<string, string>;
  /** Called with the parsed values once the whole form is valid. */
  onValid: (value: z.output<S>) => unknown;
};

/**
 * A Conform form checked by its zod schema as the spec has every form checked: first on submit,
 * then again on every change (§5). Nothing is sent while a field is wrong.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, any>>>({ id, schema, defaultValue, onValid }: Options<S>) {
  // Conform types the fields by the values' names: the output's, which here are the input's, and
  // which a schema typed by its output alone (a prop's `z.ZodType<Form>`) also states.
  return useForm<z.output<S>>({
    id,
    // Text, as the form holds it, whatever the schema's output makes of it (a list from 'a, b').
    defaultValue: defaultValue as DefaultValue<z.output<S>>,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as Submission<z.output<S>>,
    onSubmit: (event, { submission }) => {
      event.preventDefault();
      if (submission?.status === 'success') void onValid(submission.value);
    },
  });
}
