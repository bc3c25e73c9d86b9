import { z } from 'zod';
import { adminUserCreateSchema, adminUserUpdateSchema } from '../../../../contract/admin';

const checkbox = z.preprocess((value) => value === 'on', z.boolean());

/** Admin create user (spec §5): the registration rules, 'Full Name is required', a repeated password. */
export const createUserFormSchema = adminUserCreateSchema
  .extend({
    repeat_password: z.string({ error: 'Repeat Password is required' }).min(1, 'Repeat Password is required'),
    is_admin: checkbox,
  })
  .refine((form) => form.password === form.repeat_password, { message: 'Password does not match', path: ['repeat_password'] });

export const editUserFormSchema = adminUserUpdateSchema.extend({ is_admin: checkbox, phone_number: adminUserUpdateSchema.shape.phone_number.optional() });
