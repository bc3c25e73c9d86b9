import { z } from 'zod';
import { adminUserCreateSchema, adminUserPasswordSchema, adminUserUpdateSchema } from '../../../../contract/admin';
import { groupsField, usernameField, withRepeatedPassword } from '../../../../contract/fields';
import { checkbox, commaList } from '../shared/form-fields';

/** Groups are typed in one box, separated by commas. */
const groups = z.preprocess(commaList, groupsField);

/** Admin create user (spec §5): the registration rules, 'Full Name is required', a repeated password. */
export const createUserFormSchema = withRepeatedPassword(adminUserCreateSchema.extend({ is_admin: checkbox, groups }), 'Repeat Password');

/** An administrator setting a user's password: the registration rules, repeated. */
export const setPasswordFormSchema = withRepeatedPassword(adminUserPasswordSchema, 'Repeat Password');

/** Edit user: the username is shown, so emptying it is an error rather than "leave it". */
export const editUserFormSchema = adminUserUpdateSchema.extend({ is_admin: checkbox, username: usernameField, phone_number: adminUserUpdateSchema.shape.phone_number.optional(), groups });
