import { z } from 'zod';
import { adminUserCreateSchema, adminUserPasswordSchema, adminUserUpdateSchema } from '../../../../contract/admin';

const checkbox = z.preprocess((value) => value === 'on', z.boolean());
const repeatPassword = z.string({ error: 'Repeat Password is required' }).min(1, 'Repeat Password is required');
const passwordsMatch = (form: { password: string; repeat_password: string }) => form.password === form.repeat_password;
const mismatch = { message: 'Password does not match', path: ['repeat_password'] };

/** Admin create user (spec §5): the registration rules, 'Full Name is required', a repeated password. */
export const createUserFormSchema = adminUserCreateSchema.extend({ repeat_password: repeatPassword, is_admin: checkbox }).refine(passwordsMatch, mismatch);

/** An administrator setting a user's password: the registration rules, repeated. */
export const setPasswordFormSchema = adminUserPasswordSchema.extend({ repeat_password: repeatPassword }).refine(passwordsMatch, mismatch);

export const editUserFormSchema = adminUserUpdateSchema.extend({ is_admin: checkbox, phone_number: adminUserUpdateSchema.shape.phone_number.optional() });
