/** A mistake of the person at the command line, not a failure of Home Guard: one line, exit code 2. */
export class OperatorError extends Error {}

/** A command written wrong: told in one line, followed by the usage. */
export class UsageError extends OperatorError {}
