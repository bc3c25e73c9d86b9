import { z } from 'zod';
import { adminUserCreateSchema, adminUserPasswordSchema, adminUserUpdateSchema, distinctNames, GROUP_NAME, GROUP_NAME_RULE, MAX_GROUPS } from '../../../../contract/admin';
import { withRepeatedPassword } from '../../../../contract/fields';

const checkbox = z.preprocess((value) => value === 'on', z.boolean());

/** Admin create user (spec §5): the registration rules, 'Full Name is required', a repeated password. */
export const createUserFormSchema = withRepeatedPassword(adminUserCreateSchema.extend({ is_admin: checkbox }), 'Repeat Password');

/** An administrator setting a user's password: the registration rules, repeated. */
export const setPasswordFormSchema = withRepeatedPassword(adminUserPasswordSchema, 'Repeat Password');

/** The groups typed in one box, separated by commas; the API takes the list. */
const groupsText = z
  .string()
  .optional()
  .transform((text) => distinctNames((text ?? '').split(',').map((name) => name.trim()).filter(Boolean)))
  .refine((names) => names.every((name) => GROUP_NAME.test(name)), GROUP_NAME_RULE)
  .refine((names) => names.length <= MAX_GROUPS, `At most ${MAX_GROUPS} groups`);

export const editUserFormSchema = adminUserUpdateSchema.extend({ is_admin: checkbox, phone_number: adminUserUpdateSchema.shape.phone_number.optional(), groups: groupsText });
