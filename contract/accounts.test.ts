import { describe, expect, it } from 'vitest';
import { registerFormSchema } from './accounts';

const messages = (value: unknown) => registerFormSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('the registration form schema', () => {
  it("gives every missing field the spec's '{Field} is required'", () => {
    expect(messages({})).toEqual(['full_name: Full name is required', 'email: Email is required', 'password: Password is required', 'repeat_password: Repeat password is required']);
  });

  it('reports a password mismatch even while other fields are still wrong', () => {
    expect(messages({ email: 'broken@', password: 'Good-password1', repeat_password: 'Other-password1' })).toContain('repeat_password: Password does not match');
    expect(messages({ full_name: 'A', email: 'a@b.co', password: 'Good-password1', repeat_password: 'Good-password1' })).toEqual([]);
  });
});
