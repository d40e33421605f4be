let counter = 0;

/** A value unique within the test run, for internal ids and names. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;
